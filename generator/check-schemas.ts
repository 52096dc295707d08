/**
 * The schemas of an OpenAPI document, checked before the validators are compiled from them, so
 * that a bad schema is a located SpecError and never a crash of Ajv or of the inlining:
 * - each schema is JSON Schema 2020-12 (Ajv's meta-schema: `type: strng`, `required: name`…);
 * - every keyword is one the validators compile, an annotation, or an `x-` extension (Ajv runs in
 *   strict mode, where an unknown keyword is an error);
 * - every `pattern` and `patternProperties` key is a regular expression (with the `u` flag, as
 *   Ajv compiles them);
 * - a `$ref` inside a schema names a component schema (`#/components/schemas/<Name>`).
 *
 * And the size of the schemas the validators inline (each operation's parameters, request body and
 * success responses, every `$ref` to a component replaced by the component; cycles stay one
 * `$ref`): at most `INLINE_NODES_PER_OPERATION` for one operation and, for all of them together,
 * `INLINE_NODES_PER_DOCUMENT_NODE` × the document's nodes + `INLINE_NODES_BASE`. The real spec
 * inlines 9,854 nodes in all (1.1× its 8,809), 135 at most in one operation. Two references to
 * the next component at each of 16 levels make 2^16 copies: one such validator took 3.6 GB.
 * An operation over its own limit is a fallback when the caller collects them (`overCap`): its
 * request is then not validated by the client (typed as written), and it counts for nothing in
 * the total; the total stays a refusal.
 */
import { createHash } from 'node:crypto';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { ANNOTATIONS, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './transform/inline-schema.js';
import { componentNameOf } from './transform/refs.js';
import { refSegments } from './spec-document.js';
import { collectSpecErrors, pointerOf, quoted, type SpecProblem } from './spec-error.js';
import { discriminatedOf } from './transform/discriminator.js';
import type { GeneratorCache } from './format.js';

const AjvClass: typeof Ajv2020Module.default = (Ajv2020Module as any).default ?? Ajv2020Module;
let ajv: InstanceType<typeof AjvClass> | undefined;
/** Ajv with the 2020-12 meta-schema (compiled on first use, ~60 ms): these checks and emit's checkSchema share it. */
// strictNumbers: the emitter's guard (checkSchema) shares this instance and refused an Infinity or NaN
// bound before they were shared; spec input never has one (refused as not-json on reading)
export const meta = () => (ajv ??= new AjvClass({ strict: false, strictNumbers: true, allErrors: false }));

/** Keywords of OpenAPI 3.0 that normalize-schema.ts translates (or refuses with its own message). */
const OPENAPI_30 = new Set(['nullable']);
/** Keywords that hold values, not schemas: not walked. */
const VALUE_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples']);
/** Keys of the document whose subtree is data, never a schema. */
const DATA_KEYS = new Set(['example', 'examples']);

export const INLINE_NODES_PER_OPERATION = 10_000;
export const INLINE_NODES_PER_DOCUMENT_NODE = 4;
export const INLINE_NODES_BASE = 20_000;

const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Every schema of the document that stands on its own: component schemas and each `schema` of a parameter, header or media type. */
export function schemaRoots(doc: Record<string, any>): { pointer: string; schema: unknown }[] {
  const roots: { pointer: string; schema: unknown }[] = [];
  const components = isMapping(doc.components?.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(components))
    roots.push({ pointer: pointerOf('components', 'schemas', name), schema });
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      const here = pointer + pointerOf(key);
      if (here === '/components/schemas' || DATA_KEYS.has(String(key)) || String(key).startsWith('x-')) continue;
      if (key === 'schema' && !Array.isArray(node)) roots.push({ pointer: here, schema: value });
      else walk(value, here);
    }
  };
  walk(doc, '');
  return roots;
}

/**
 * `cache`: schemas the meta-schema passed on an earlier run, by the hash of their JSON, so that a
 * run after a one-line edit neither compiles Ajv's meta-schema (~60 ms) nor walks every schema
 * through it again. Only passes are kept; a schema that failed is checked again.
 */
export function checkSchemas(doc: Record<string, any>, cache?: GeneratorCache): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const components = new Map<string, any>(
    Object.entries(isMapping(doc.components?.schemas) ? doc.components.schemas : {}),
  );
  for (const { pointer, schema } of schemaRoots(doc)) {
    if (typeof schema === 'boolean') continue;
    if (!isMapping(schema)) {
      problems.push({
        pointer,
        rule: 'schema',
        message: `a schema is a mapping (or true/false), found ${quoted(schema)}`,
        hint: 'write the schema as a mapping, e.g. { type: string }',
      });
      continue;
    }
    const own = keywordProblems(schema, pointer, components);
    // the meta-schema speaks when the keywords are sound (its errors on an unknown keyword say less)
    if (own.length) problems.push(...own);
    else if (!metaSchemaPasses(withoutOpenApi30(schema) as object, cache))
      problems.push(metaProblem(pointer, schema, meta().errors ?? []));
  }
  return problems;
}

function metaSchemaPasses(schema: object, cache: GeneratorCache | undefined): boolean {
  const key = cache ? `meta-schema-ok\0${createHash('sha256').update(JSON.stringify(schema)).digest('hex')}` : '';
  if (cache?.get(key) !== undefined) return true;
  const ok = meta().validateSchema(schema) as boolean;
  if (ok) cache?.set(key, '');
  return ok;
}

/** `exclusiveMinimum: true` and friends are OpenAPI 3.0, translated by normalize-schema.ts: not the meta-schema's to judge. */
function withoutOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutOpenApi30);
  if (!isMapping(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') continue;
    out[k] = VALUE_KEYWORDS.has(k) ? v : withoutOpenApi30(v);
  }
  return out;
}

/** Unknown keywords, patterns that do not compile, `$ref`s that name no component schema: walked by hand, each at its pointer. */
function keywordProblems(
  root: Record<string, any>,
  rootPointer: string,
  components: ReadonlyMap<string, any>,
): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const stack: { schema: unknown; pointer: string }[] = [{ schema: root, pointer: rootPointer }];
  while (stack.length) {
    const { schema, pointer } = stack.pop()!;
    if (!isMapping(schema)) continue;
    // a discriminator is read by the types and the validators: its problems at its own place, now
    if (isMapping(schema.discriminator))
      collectSpecErrors(problems, () => discriminatedOf(schema, components, pointer));
    else if (schema.discriminator !== undefined)
      problems.push({
        pointer: `${pointer}/discriminator`,
        rule: 'discriminator',
        message: 'a discriminator is a mapping with propertyName (and mapping)',
        hint: 'write discriminator: { propertyName: <property> }',
      });
    for (const [key, value] of Object.entries(schema)) {
      const at = pointer + pointerOf(key);
      if (key.startsWith('x-') || ANNOTATIONS.has(key) || OPENAPI_30.has(key)) continue;
      // what Ajv's strict mode calls an unknown keyword (checkUnknownRules: not in RULES.keywords)
      if (!(meta() as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES.keywords[key]) {
        problems.push({
          pointer: at,
          rule: 'schema-keyword',
          message: `${quoted(key)} is not a keyword of JSON Schema 2020-12 or OpenAPI 3.1: the validators are compiled strictly, and would fail on it`,
          hint: 'remove it, or name it x-… if it is an extension of another tool',
        });
        continue;
      }
      if (key === '$ref' && typeof value === 'string' && componentNameOf(value) === undefined) {
        problems.push({
          pointer: at,
          rule: 'schema-ref',
          message: `a schema's $ref must name a component schema, found ${quoted(value)}`,
          hint: 'refer to #/components/schemas/<Name> (move the shape there if it lives elsewhere)',
        });
      }
      if (key === 'pattern' && typeof value === 'string') regexProblem(value, at, problems);
      if (key === 'patternProperties' && isMapping(value))
        for (const p of Object.keys(value)) regexProblem(p, at + pointerOf(p), problems);
      if (ONE_SCHEMA.has(key) || key === 'contentSchema') stack.push({ schema: value, pointer: at });
      else if (SCHEMA_MAP.has(key) && isMapping(value))
        for (const [k, v] of Object.entries(value)) stack.push({ schema: v, pointer: at + pointerOf(k) });
      else if (SCHEMA_LIST.has(key) && Array.isArray(value))
        value.forEach((v, i) => stack.push({ schema: v, pointer: `${at}/${i}` }));
    }
  }
  return problems;
}

function regexProblem(pattern: string, pointer: string, problems: SpecProblem[]): void {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    problems.push({
      pointer,
      rule: 'schema-pattern',
      message: `${quoted(pattern)} is not a regular expression (as the validators compile it, with the u flag): ${(error as Error).message}`,
      hint: 'fix the expression (escape a literal ( [ { + * ? . with a backslash)',
    });
  }
}

function metaProblem(pointer: string, schema: unknown, errors: ErrorObject[]): SpecProblem {
  // the deepest error is the most specific one (a oneOf/anyOf around it says only that no branch fit)
  const e = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  const at = pointer + (e?.instancePath ?? '');
  const value = e
    ? e.instancePath
        .split('/')
        .filter(Boolean)
        .reduce<any>((v, s) => (v == null ? v : v[s.replace(/~1/g, '/').replace(/~0/g, '~')]), schema)
    : schema;
  const allowed = (e?.params as { allowedValues?: unknown[] })?.allowedValues;
  const message = `not a JSON Schema 2020-12 schema: ${e?.instancePath.split('/').filter(Boolean).pop() ?? 'the schema'} ${e?.message ?? 'is not valid'}${allowed ? ` (${allowed.join(', ')})` : ''}, found ${quoted(value)}`;
  return {
    pointer: at,
    rule: 'schema',
    message,
    hint: allowed ? `write one of ${allowed.join(', ')}` : 'write it as JSON Schema 2020-12 defines the keyword',
  };
}

/**
 * The nodes the validators would hold with every component `$ref` inlined (recursive components
 * stay one `$ref`), per operation and over all of them, against the limits; one problem at the
 * operation over its own limit, or at the one that inlines the most when the total is over.
 */
export function checkInlinedSize(
  doc: Record<string, any>,
  documentNodes: number,
  overCap?: Set<string>,
): SpecProblem[] {
  const total = INLINE_NODES_PER_DOCUMENT_NODE * documentNodes + INLINE_NODES_BASE;
  const cap = Math.min(total, Math.max(INLINE_NODES_PER_OPERATION, 1));
  const memo = new Map<string, number>();
  const open = new Set<string>();
  const sizeOfRef = (ref: string): number => {
    if (!ref.startsWith('#/')) return 1;
    const known = memo.get(ref);
    if (known !== undefined) return known;
    if (open.has(ref)) return 1; // a cycle: the validators keep it as one $ref to $defs
    open.add(ref);
    let target: unknown = doc;
    for (const key of refSegments(ref))
      target = isMapping(target) || Array.isArray(target) ? (target as any)[key] : undefined;
    const size = sizeOf(target);
    open.delete(ref);
    memo.set(ref, size);
    return size;
  };
  // recursion is bounded by the document's depth (MAX_SPEC_DEPTH) and the memo keeps it linear
  const sizeOf = (node: unknown): number => {
    if (!node || typeof node !== 'object') return 1;
    let size = 1;
    for (const [key, value] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      size +=
        key === '$ref' && typeof value === 'string' ? sizeOfRef(value) : DATA_KEYS.has(String(key)) ? 1 : sizeOf(value);
      if (size > total) return size;
    }
    return size;
  };
  let sum = 0;
  let largest = { pointer: '/paths', size: 0 };
  for (const [path, item] of Object.entries<any>(isMapping(doc.paths) ? doc.paths : {})) {
    if (!isMapping(item)) continue;
    for (const method of ['get', 'put', 'post', 'patch', 'delete', 'head', 'options']) {
      const op = item[method];
      if (!isMapping(op)) continue;
      // what the validators compile: parameters, the request body, the success responses
      const success = Object.entries(isMapping(op.responses) ? op.responses : {}).filter(([status]) =>
        /^2/.test(status),
      );
      const size =
        sizeOf(item.parameters) +
        sizeOf(op.parameters) +
        sizeOf(op.requestBody) +
        success.reduce((n, [, r]) => n + sizeOf(r), 0);
      const pointer = pointerOf('paths', path, method);
      if (size > cap) {
        const problem = inlinedProblem(
          pointer,
          `its schemas with their $refs inlined (as its request validator holds them) come to over ${cap.toLocaleString('en')} nodes, the most one operation may inline`,
        );
        // the caller's choice: a fallback for this operation (not validated), or a refusal
        if (!overCap) return [problem];
        overCap.add(pointer);
        continue;
      }
      sum += size;
      if (size > largest.size) largest = { pointer, size };
      if (sum > total) {
        return [
          inlinedProblem(
            largest.pointer,
            `with their $refs inlined the operations' schemas come to over ${total.toLocaleString('en')} nodes (${INLINE_NODES_PER_DOCUMENT_NODE}× the document's ${documentNodes.toLocaleString('en')} plus ${INLINE_NODES_BASE.toLocaleString('en')}); this operation inlines the most, ${largest.size.toLocaleString('en')}`,
          ),
        ];
      }
    }
  }
  return [];
}

function inlinedProblem(pointer: string, message: string): SpecProblem {
  return {
    pointer,
    rule: 'inlined-size',
    message,
    hint: 'a component that refers to another component several times, at several levels, multiplies: refer to each shared part once, or through one wrapper schema',
  };
}
