/**
 * Checks every `x-` extension of a spec against spec/extensions.schema.json: names by where they
 * stand, values by their schema. An unknown name near a known one (`x-paginaton`) is refused with
 * a suggestion, because a misspelt extension silently changes what is generated (a list would
 * become a single call); a name far from all of ours belongs to another tool and is left alone.
 * Pure: the schema comes in as data.
 */
import { createHash } from 'node:crypto';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { extensionsSchema, OPERATION_EXTENSIONS, type OperationContext } from './extensions/index.js';
import type { GeneratorCache } from './format.js';
import { nearestName } from './nearest-name.js';
import { collectSpecErrors, pointerOf, pointerSegment, quoted, type SpecProblem } from './spec-error.js';

export type ExtensionsSchema = { $defs: Record<string, any> };
type Place = 'operation' | 'callbacks';

const AjvClass: typeof Ajv2020Module.default = (Ajv2020Module as any).default ?? Ajv2020Module;
const OPERATION_KEYS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);
/** Maps whose keys are names chosen by the author (a property called `x-foo` is no extension). */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'schemas',
  'parameters',
  'responses',
  'headers',
  'content',
  'examples',
  'securitySchemes',
  'messages',
  'channels',
  'operations',
  'servers',
  'variables',
  'mapping',
  'encoding',
  'links',
  'callbacks',
  'requestBodies',
  'pathItems',
]);
/** Values that are data, not spec objects. */
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum']);

interface Compiled {
  /** The validator of one extension at one place (compiled on first use: a spec uses few of them). */
  validator(place: Place | 'anywhere', name: string): ValidateFunction | undefined;
  names: Record<Place | 'anywhere', ReadonlySet<string>>;
  all: Set<string>;
  /** Hash of the schema's JSON: part of every cache key, so an edited schema checks every value afresh. */
  hash: string;
}

const compiledBySchema = new WeakMap<ExtensionsSchema, Compiled>();
/** By JSON too: spec/extensions.schema.json and the registry's extensionsSchema() are equal, compiled once. */
const compiledByText = new Map<string, Compiled>();

function compile(schema: ExtensionsSchema): Compiled {
  const cached = compiledBySchema.get(schema);
  if (cached) return cached;
  const text = JSON.stringify(schema);
  const compiled = compiledByText.get(text) ?? compileText(schema, createHash('sha256').update(text).digest('hex'));
  compiledByText.set(text, compiled);
  compiledBySchema.set(schema, compiled);
  return compiled;
}

function compileText(schema: ExtensionsSchema, hash: string): Compiled {
  // made on first use too: adding the schema compiles Ajv's meta-schema to check it (~60 ms)
  let ajv: InstanceType<typeof AjvClass> | undefined;
  const ajvWithSchema = () => {
    if (ajv) return ajv;
    ajv = new AjvClass({ allErrors: true, strict: false });
    return ajv.addSchema({ ...schema, $id: 'urn:im-openapi:spec-extensions' });
  };
  const namesOf = (def: string) => new Set(Object.keys(schema.$defs[def].properties));
  const names = { operation: namesOf('operation'), callbacks: namesOf('callbacks'), anywhere: namesOf('anywhere') };
  const validators = new Map<string, ValidateFunction>();
  const validator = (place: Place | 'anywhere', name: string): ValidateFunction | undefined => {
    if (!names[place].has(name)) return undefined;
    const id = `urn:im-openapi:spec-extensions#/$defs/${place}/properties/${pointerSegment(name)}`;
    let validate = validators.get(id);
    if (!validate) validators.set(id, (validate = ajvWithSchema().getSchema(id)!));
    return validate;
  };
  return { validator, names, all: new Set([...names.operation, ...names.callbacks, ...names.anywhere]), hash };
}

/**
 * The validator that refuses `value`, or undefined when it passes. A value that passed on an
 * earlier run (by the hash of place, name and JSON, in the generator's `cache`) passes without
 * Ajv: after a one-line edit no extension schema is compiled (~60 ms). Only passes are kept.
 */
function refusedBy(
  compiled: Compiled,
  place: Place | 'anywhere',
  name: string,
  value: unknown,
  cache: GeneratorCache | undefined,
): ValidateFunction | undefined {
  const key = cache
    ? `extension-ok\0${createHash('sha256')
        .update(`${compiled.hash}\0${place}\0${name}\0${JSON.stringify(value)}`)
        .digest('hex')}`
    : '';
  if (cache?.get(key) !== undefined) return undefined;
  const validate = compiled.validator(place, name)!;
  if (!validate(value)) return validate;
  cache?.set(key, '');
  return undefined;
}

/** The registry's schema (extensions/index.ts), compiled once: what checkOperationExtensions validates with. */
let registrySchema: ExtensionsSchema | undefined;

/**
 * The problems of one operation's extensions, each reported once, by its module: a value its
 * schema refuses (in the module's words when it has them), else the module's own checks.
 */
export function checkOperationExtensions(ctx: OperationContext, cache?: GeneratorCache): SpecProblem[] {
  registrySchema ??= extensionsSchema();
  const compiled = compile(registrySchema);
  const problems: SpecProblem[] = [];
  for (const extension of OPERATION_EXTENSIONS) {
    const value = ctx.op[extension.name];
    const validate = value === undefined ? undefined : refusedBy(compiled, 'operation', extension.name, value, cache);
    if (validate) {
      const pointer = `${ctx.at}/${pointerSegment(extension.name)}`;
      problems.push(
        extension.explain?.(value, ctx) ?? valueProblem(extension.name, value, pointer, validate.errors ?? []),
      );
    } else if (extension.check) collectSpecErrors(problems, () => extension.check!(value, ctx));
  }
  return problems;
}

/**
 * Every extension problem of an OpenAPI (`operation` extensions) or AsyncAPI (`callbacks`) document.
 * `operationValues: false`: names only on operations (checkOperationExtensions checks their values).
 */
export function checkExtensions(
  doc: unknown,
  schema: ExtensionsSchema,
  kind: 'openapi' | 'asyncapi',
  { operationValues = true, cache }: { operationValues?: boolean; cache?: GeneratorCache | undefined } = {},
): SpecProblem[] {
  const compiled = compile(schema);
  const { names, all } = compiled;
  const problems: SpecProblem[] = [];
  // one path array, pushed and popped as the walk goes (a copy per node was most of this step's time)
  const path: string[] = [];
  const walk = (node: unknown, place: Place | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        path.push(String(i));
        walk(v, undefined);
        path.pop();
      });
      return;
    }
    if (!node || typeof node !== 'object') return;
    const parentKey = path[path.length - 1];
    const grandparentKey = path[path.length - 2];
    const keysAreNames = parentKey !== undefined && (NAME_MAPS.has(parentKey) || parentKey === 'paths');
    for (const [key, value] of Object.entries(node)) {
      path.push(key);
      if (key.startsWith('x-') && !keysAreNames) checkOne(key, value, [...path], place);
      if (!key.startsWith('x-') && !DATA.has(key)) {
        const childPlace: Place | undefined =
          kind === 'asyncapi'
            ? 'callbacks'
            : parentKey !== undefined && grandparentKey === 'paths' && OPERATION_KEYS.has(key)
              ? 'operation'
              : undefined;
        walk(value, childPlace);
      }
      path.pop();
    }
  };
  const checkOne = (name: string, value: unknown, path: string[], place: Place | undefined): void => {
    const pointer = pointerOf(...path);
    if (!operationValues && place === 'operation' && names.operation.has(name)) return;
    const at = names.anywhere.has(name) ? 'anywhere' : place && names[place].has(name) ? place : undefined;
    if (at) {
      const refused = refusedBy(compiled, at, name, value, cache);
      if (refused) problems.push(valueProblem(name, value, pointer, refused.errors ?? []));
      return;
    }
    if (all.has(name)) {
      const where = names.operation.has(name) ? 'an operation (paths.<path>.<method>)' : 'the callbacks spec';
      problems.push({
        pointer,
        rule: 'extension-misplaced',
        message: `${name} is read on ${where} only; here it has no effect`,
        hint: `move it to ${where}`,
      });
      return;
    }
    const near = nearestName(name, [...(place ? names[place] : []), ...names.anywhere, ...all]);
    if (near)
      problems.push({
        pointer,
        rule: 'unknown-extension',
        message: `${name} is not an extension im-openapi reads, so it would be ignored`,
        hint: `did you mean ${near}?`,
      });
  };
  walk(doc, kind === 'asyncapi' ? 'callbacks' : undefined);
  return problems;
}

const SCHEMA_HINT = 'write the value as spec/extensions.schema.json describes it';

function valueProblem(name: string, value: unknown, pointer: string, errors: ErrorObject[]): SpecProblem {
  // The most specific error speaks: enum/const/pattern/type inside, before the oneOf/anyOf around them.
  const inner = errors.filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword));
  const e = inner[0] ?? errors[0];
  if (!e)
    return { pointer, rule: 'extension-value', message: `${name} has a value that is not allowed`, hint: SCHEMA_HINT };
  const field = `${name}${e.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
    .join('')}`;
  const got = (v: unknown) => ` (got ${quoted(v)})`;
  const at = pointer + e.instancePath;
  const valueAt = e.instancePath
    .split('/')
    .filter(Boolean)
    .reduce<any>((v, s) => (v == null ? v : v[s.replace(/~1/g, '/').replace(/~0/g, '~')]), value);
  switch (e.keyword) {
    case 'enum':
      return {
        pointer: at,
        rule: 'extension-value',
        message: `${field} must be one of ${(e.params as any).allowedValues.join(', ')}${got(valueAt)}`,
        hint:
          nearestHint(valueAt, (e.params as any).allowedValues) ??
          `write one of ${(e.params as any).allowedValues.join(', ')}`,
      };
    case 'const':
      return {
        pointer: at,
        rule: 'extension-value',
        message: `${field} must be ${quoted((e.params as any).allowedValue)}${got(valueAt)}`,
        hint: `write ${quoted((e.params as any).allowedValue)}`,
      };
    case 'type':
      return {
        pointer: at,
        rule: 'extension-value',
        message: `${field} must be ${[(e.params as any).type].flat().join(' or ')}${got(valueAt)}`,
        hint:
          typeof valueAt === 'string' && /^-?\d+$/.test(valueAt)
            ? `write ${valueAt} without quotes`
            : `write a value of type ${[(e.params as any).type].flat().join(' or ')}`,
      };
    case 'required':
      return {
        pointer: at,
        rule: 'extension-value',
        message: `${field} needs ${(e.params as any).missingProperty}`,
        hint: `add ${(e.params as any).missingProperty}`,
      };
    case 'additionalProperties': {
      const extra = (e.params as any).additionalProperty as string;
      const parentSchemaKeys = Object.keys((e.parentSchema as any)?.properties ?? {});
      const near = nearestName(extra, parentSchemaKeys);
      return {
        pointer: `${at}/${pointerSegment(extra)}`,
        rule: 'extension-value',
        message: `${field} has no field ${quoted(extra)} (fields: ${parentSchemaKeys.join(', ')})`,
        hint: near ? `did you mean ${near}?` : `remove it (the fields are ${parentSchemaKeys.join(', ')})`,
      };
    }
    default:
      return {
        pointer: at,
        rule: 'extension-value',
        message: `${field} ${e.message ?? 'is not allowed'}${got(valueAt)}`,
        hint: SCHEMA_HINT,
      };
  }
}

function nearestHint(value: unknown, allowed: unknown[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const near = nearestName(
    value,
    allowed.filter((v): v is string => typeof v === 'string'),
  );
  return near ? `did you mean ${near}?` : undefined;
}
