/**
 * Parse and check an OpenAPI document before any model is built. Every refusal is a SpecError
 * naming the JSON pointer, the rule and the fix, so a spec author can find and fix it.
 */
import { checkExtensions, checkOperationExtensions, type ExtensionsSchema } from './check-extensions.js';
import { checkInlinedSize, checkSchemas } from './check-schemas.js';
import type { GeneratorCache } from './format.js';
import { nearestName } from './nearest-name.js';
import { CLIENT_MEMBERS, operationNames, RESOURCE_MEMBERS } from './names.js';
import { externalRefs, HTTP_TOKEN, readSpecDocument, refSegments, refsOf } from './spec-document.js';
import { SpecError, collectSpecErrors, pointerOf, quoted, type SpecProblem } from './spec-error.js';
import type { GeneratorWarning } from './model.js';
import { repairSchemas } from './repair-schemas.js';

/** The HTTP methods an operation may use, as OpenAPI path items spell them. */
export const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
/** Operation keys OpenAPI allows that the client does not call: each a located warning, never dropped silently. */
export const SKIPPED_METHODS = ['trace'] as const;
const OPERATION_ID = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
/**
 * One segment of a path template: URL path characters (RFC 3986 pchar) and `{name}`
 * placeholders. The runtime sends the literal parts as they are, so nothing else may stand there.
 */
const PATH_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}|\{[A-Za-z_][A-Za-z0-9_]*\})+$/;
/** A path parameter's name: what `{name}` in a path template can hold. */
const PATH_PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type OpenApiDocument = Record<string, any>;

export interface ParseOptions {
  /** Refuse a spec over this many bytes (default DEFAULT_MAX_SPEC_BYTES, spec-document.ts). */
  maxBytes?: number;
}

/**
 * `cache` (optional) keeps the parsed pieces of the YAML text (yaml-chunks.ts), so an edit
 * re-parses only the piece it touched: YAML parsing is the slow part.
 * `extensions` (spec/extensions.schema.json): when given, every x- name and value is checked.
 * Every problem found is reported at once, in one SpecError.
 */
export function parseSpec(
  text: string,
  source = 'spec/openapi.yaml',
  cache?: GeneratorCache,
  extensions?: ExtensionsSchema,
  options: ParseOptions = {},
): OpenApiDocument {
  return parseSpecWithWarnings(text, source, cache, extensions, options).doc;
}

/** parseSpec, with the warnings of what was read in a defined way instead of refused (repair-schemas.ts, path keys). */
export function parseSpecWithWarnings(
  text: string,
  source = 'spec/openapi.yaml',
  cache?: GeneratorCache,
  extensions?: ExtensionsSchema,
  options: ParseOptions = {},
): { doc: OpenApiDocument; warnings: GeneratorWarning[]; unvalidated: Set<string> } {
  const { doc, nodes } = readSpecDocument(text, source, { cache, maxBytes: options.maxBytes });
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new SpecError(
      '',
      'document',
      `${source} is not a YAML mapping`,
      'start the file with openapi: 3.1.0, info and paths',
    );
  const d = doc as OpenApiDocument;
  if (typeof d.openapi !== 'string' || !d.openapi.startsWith('3.1')) {
    throw new SpecError(
      '/openapi',
      'openapi-version',
      `expected OpenAPI 3.1.x, found ${quoted(d.openapi)}`,
      'write openapi: 3.1.0 (and translate 3.0 constructs)',
    );
  }
  if (!isMapping(d.paths))
    throw new SpecError('/paths', 'paths', 'the document has no paths', 'add paths: with the operations');
  const external = externalRefs(d);
  if (external.length) throw SpecError.of(external);
  const problems = checkRefs(d);
  const refsResolve = !problems.length;
  const warnings: GeneratorWarning[] = [];
  checkNames(d, problems, warnings);
  checkOperations(d, problems, cache);
  // every reference resolves: the schemas can be read (and repaired) through them
  const repaired = refsResolve ? repairSchemas(d) : { doc: d, warnings: [] };
  warnings.push(...repaired.warnings);
  problems.push(...checkSchemas(repaired.doc, cache));
  // names everywhere, values off operations: operation values are their modules' (checkOperation)
  if (extensions) problems.push(...checkExtensions(d, extensions, 'openapi', { operationValues: false, cache }));
  // the size of the schemas with their $refs inlined, once every reference resolves
  // an operation over its own inlining limit is not validated (a fallback), the total still refuses
  const unvalidated = new Set<string>();
  if (!problems.length) problems.push(...checkInlinedSize(repaired.doc, nodes, unvalidated));
  if (problems.length) throw SpecError.of(problems.sort((a, b) => a.pointer.localeCompare(b.pointer)));
  return { doc: repaired.doc, warnings, unvalidated };
}

/**
 * A path key as the client sends it: the template, a fixed query written after `?` (sent with
 * the operation's own query parameters) and a `#fragment`, never sent (documents use one to keep
 * two operations on one path apart, e.g. `/conversations#stream`).
 */
export function splitPathKey(key: string): { template: string; query?: string; fragment?: string } {
  const hash = key.indexOf('#');
  const withoutFragment = hash < 0 ? key : key.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  return {
    template: q < 0 ? withoutFragment : withoutFragment.slice(0, q),
    ...(q >= 0 ? { query: withoutFragment.slice(q + 1) } : {}),
    ...(hash >= 0 ? { fragment: key.slice(hash + 1) } : {}),
  };
}

/** A fixed query of a path key: `name=value` pairs of URL query characters. */
const FIXED_QUERY =
  /^(?:[A-Za-z0-9\-._~!$'()*+,;:@/]|%[0-9A-Fa-f]{2})+(?:=(?:[A-Za-z0-9\-._~!$'()*+,;:@/?]|%[0-9A-Fa-f]{2})*)?(?:&(?:[A-Za-z0-9\-._~!$'()*+,;:@/]|%[0-9A-Fa-f]{2})+(?:=(?:[A-Za-z0-9\-._~!$'()*+,;:@/?]|%[0-9A-Fa-f]{2})*)?)*$/;

const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Resolve a local `#/...` reference, or refuse it. */
export function resolveRef(doc: OpenApiDocument, ref: string, at: string): any {
  if (!ref.startsWith('#/'))
    throw new SpecError(
      at,
      'unresolved-ref',
      `$ref ${quoted(ref)} is not a reference into this document`,
      'write #/components/<kind>/<Name>',
    );
  let node: any = doc;
  const segments = refSegments(ref);
  for (const [i, key] of segments.entries()) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) {
      const near = node && typeof node === 'object' ? nearestName(key, Object.keys(node)) : undefined;
      const prefix = `#/${ref.slice(2).split('/').slice(0, i).join('/')}${i ? '/' : ''}`;
      throw new SpecError(
        at,
        'unresolved-ref',
        `$ref ${quoted(ref, 200)} does not resolve: there is no ${quoted(key)} there`,
        near ? `did you mean ${prefix}${near}?` : 'refer to a component that exists, or add it',
      );
    }
    node = node[key];
  }
  return node;
}

/**
 * Names that reach the wire (component schema names are mapped to safe type names by
 * transform/component-names.ts, not refused): path templates are sent as written (URL path characters, no `.`/`..`
 * segment), header and cookie parameter names are HTTP tokens, path parameter names fit `{name}`.
 */
function checkNames(doc: OpenApiDocument, problems: SpecProblem[], warnings: GeneratorWarning[]): void {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const at = pointerOf('paths', path);
    const { template, query, fragment } = splitPathKey(path);
    const segments = template.split('/').slice(1);
    if (
      !template.startsWith('/') ||
      segments.some((s) => !PATH_SEGMENT.test(s) || s === '.' || s === '..') ||
      (query !== undefined && !FIXED_QUERY.test(query))
    ) {
      problems.push({
        pointer: at,
        rule: 'path-template',
        message: `the path ${quoted(path)} is not a URL path template: the client sends its literal parts as they are`,
        hint: 'write /segment/{param}/… with letters, digits, -._~ (or %XX) in each segment, and no . or .. segment (a fixed query after ? as name=value pairs)',
      });
    } else {
      if (query !== undefined)
        warnings.push({
          pointer: at,
          rule: 'path-query',
          message: `the path key carries a fixed query (${quoted(query)}), which OpenAPI path templates do not: sent with every call, before the operation's query parameters`,
        });
      if (fragment !== undefined)
        warnings.push({
          pointer: at,
          rule: 'path-fragment',
          message: `the path key carries a fragment (${quoted(fragment)}), which OpenAPI path templates do not: never sent (it only keeps two operations on one path apart)`,
        });
    }
    if (!isMapping(item)) continue;
    for (const m of SKIPPED_METHODS)
      if (isMapping(item[m]))
        warnings.push({
          pointer: `${at}/${m}`,
          rule: 'method-skipped',
          fallback: true,
          message: `${m.toUpperCase()} operations are not generated (a TRACE request echoes itself: no SDK call needs one)`,
        });
    const lists: [string, unknown][] = [
      [`${at}/parameters`, item.parameters],
      ...METHODS.filter((m) => isMapping(item[m])).map(
        (m) => [`${at}/${m}/parameters`, item[m].parameters] as [string, unknown],
      ),
    ];
    for (const [where, list] of lists) {
      if (!Array.isArray(list)) continue;
      list.forEach((raw, i) => collectSpecErrors(problems, () => checkParameterName(doc, raw, `${where}/${i}`)));
    }
  }
}

function checkParameterName(doc: OpenApiDocument, raw: unknown, at: string): void {
  const ref = isMapping(raw) && typeof raw.$ref === 'string' ? raw.$ref : undefined;
  const p = ref ? resolveRef(doc, ref, `${at}/$ref`) : raw;
  if (!isMapping(p)) return;
  // a parameter defined in components is reported where it is defined
  const where = ref ? `${ref.slice(1)}/name` : `${at}/name`;
  if (typeof p.name !== 'string' || p.name === '') {
    throw new SpecError(
      where,
      'parameter-name',
      `a parameter needs a name, found ${quoted(p.name)}`,
      'write the name as it goes on the wire',
    );
  }
  if ((p.in === 'header' || p.in === 'cookie') && !HTTP_TOKEN.test(p.name)) {
    throw new SpecError(
      where,
      'parameter-name',
      `the ${p.in} name ${quoted(p.name)} is not an HTTP token (letters, digits and !#$%&'*+.^_\`|~-)`,
      `write the ${p.in} name as it goes on the wire, e.g. X-Request-Id`,
    );
  }
  if (p.in === 'path' && !PATH_PARAM_NAME.test(p.name)) {
    throw new SpecError(
      where,
      'parameter-name',
      `the path parameter name ${quoted(p.name)} cannot stand in a path template ({name}: letters, digits and _)`,
      'rename it, here and in the path',
    );
  }
}

function checkRefs(doc: OpenApiDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const { pointer, ref } of refsOf(doc)) collectSpecErrors(problems, () => resolveRef(doc, ref, pointer));
  return problems;
}

/** Deref one level (parameters and request bodies may be $refs). */
export function deref(doc: OpenApiDocument, node: any, at: string): any {
  return node && typeof node === 'object' && typeof node.$ref === 'string' ? resolveRef(doc, node.$ref, at) : node;
}

function checkOperations(doc: OpenApiDocument, problems: SpecProblem[], cache?: GeneratorCache): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      const op = isMapping(item) ? item[method] : undefined;
      const at = pointerOf('paths', path, method);
      if (isMapping(op))
        collectSpecErrors(problems, () =>
          problems.push(...checkOperationExtensions({ op, at, id: checkOperation(op, at, seen) }, cache)),
        );
    }
  }
}

function checkOperation(op: any, at: string, seen: Map<string, string>): string {
  const id = op.operationId;
  if (typeof id !== 'string' || !OPERATION_ID.test(id)) {
    throw new SpecError(
      `${at}/operationId`,
      'operation-id',
      `operationId must look like "namespace.op_name", found ${quoted(id)}`,
      'write lower-case letters, digits and _ in two or more dotted parts, e.g. users.batch_create (it names the SDK method)',
    );
  }
  const names = operationNames(id);
  if (CLIENT_MEMBERS.has(names.namespace) || RESOURCE_MEMBERS.has(names.methodName)) {
    const member = CLIENT_MEMBERS.has(names.namespace)
      ? `the client's own member ${names.namespace}`
      : `the resource class's own member ${names.methodName}`;
    throw new SpecError(
      `${at}/operationId`,
      'name-collision',
      `operationId ${id} would name ${member}`,
      'rename the operation (its namespace becomes a client property, its second part a method)',
    );
  }
  const earlier = seen.get(id);
  if (earlier) {
    const where = earlier
      .slice(1)
      .split('/')
      .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    throw new SpecError(
      `${at}/operationId`,
      'duplicate-operation-id',
      `operationId ${id} is already used at ${where}`,
      'rename one of them: the operationId names the SDK method (namespace.op_name), so each must be unique',
    );
  }
  seen.set(id, at);
  return id;
}
