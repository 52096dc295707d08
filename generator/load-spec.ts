/**
 * Parse and check an OpenAPI document before any model is built. Every refusal is a SpecError
 * naming the JSON pointer and the rule, so a spec author can find and fix it.
 */
import { parseYamlCached } from './yaml-chunks.js';
import { checkExtensions, type ExtensionsSchema } from './check-extensions.js';
import type { GeneratorCache } from './format.js';
import { nearestName } from './nearest-name.js';
import { SpecError, collectSpecErrors, pointerOf, type SpecProblem } from './spec-error.js';

const RETRY_CLASSES = new Set(['Q', 'I', 'U', 'D', 'N']);
/** The HTTP methods an operation may use, as OpenAPI path items spell them. */
export const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const OPERATION_ID = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

export type OpenApiDocument = Record<string, any>;

/**
 * `cache` (optional) keeps the parsed pieces of the YAML text (yaml-chunks.ts), so an edit
 * re-parses only the piece it touched: YAML parsing is the slow part.
 * `extensions` (spec/extensions.schema.json): when given, every x- name and value is checked.
 * Every problem found is reported at once, in one SpecError.
 */
export function parseSpec(text: string, source = 'spec/openapi.yaml', cache?: GeneratorCache, extensions?: ExtensionsSchema): OpenApiDocument {
  let doc: unknown;
  try {
    doc = parseYamlCached(text, cache);
  } catch (error) {
    throw new SpecError('', 'yaml-syntax', `${source} is not valid YAML: ${(error as Error).message}`);
  }
  if (!doc || typeof doc !== 'object') throw new SpecError('', 'document', `${source} is not a YAML mapping`);
  const d = doc as OpenApiDocument;
  if (typeof d.openapi !== 'string' || !d.openapi.startsWith('3.1')) {
    throw new SpecError('/openapi', 'openapi-version', `expected OpenAPI 3.1.x, found ${JSON.stringify(d.openapi)}`);
  }
  if (!d.paths || typeof d.paths !== 'object') throw new SpecError('/paths', 'paths', 'the document has no paths');
  const problems = checkRefs(d);
  checkOperations(d, problems);
  // The operation checks say more about the extensions they read (e.g. retry classes): keep theirs.
  const covered = (pointer: string) => problems.some((p) => pointer === p.pointer || pointer.startsWith(`${p.pointer}/`));
  if (extensions) problems.push(...checkExtensions(d, extensions, 'openapi').filter((p) => !covered(p.pointer)));
  if (problems.length) throw SpecError.of(problems.sort((a, b) => a.pointer.localeCompare(b.pointer)));
  return d;
}

/** Resolve a local `#/...` reference, or refuse it. */
export function resolveRef(doc: OpenApiDocument, ref: string, at: string): any {
  if (!ref.startsWith('#/')) throw new SpecError(at, 'unresolved-ref', `only local references are supported, found ${ref}`);
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node)) {
      const near = node && typeof node === 'object' ? nearestName(key, Object.keys(node)) : undefined;
      throw new SpecError(at, 'unresolved-ref', `$ref ${ref} does not resolve: there is no ${JSON.stringify(key)} there`, near ? `did you mean ${ref.slice(0, ref.length - raw.length)}${near}?` : undefined);
    }
    node = node[key];
  }
  return node;
}

function checkRefs(doc: OpenApiDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${pointer}/${i}`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') collectSpecErrors(problems, () => resolveRef(doc, value, `${pointer}/$ref`));
      // the parent's pointer plus this key, escaped (not re-split and re-escaped at every level)
      else walk(value, pointer + pointerOf(key));
    }
  };
  walk(doc, '');
  return problems;
}


/** Deref one level (parameters and request bodies may be $refs). */
export function deref(doc: OpenApiDocument, node: any, at: string): any {
  return node && typeof node === 'object' && typeof node.$ref === 'string' ? resolveRef(doc, node.$ref, at) : node;
}

function checkOperations(doc: OpenApiDocument, problems: SpecProblem[]): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (op) collectSpecErrors(problems, () => checkOperation(op, pointerOf('paths', path, method), seen));
    }
  }
}

function checkOperation(op: any, at: string, seen: Map<string, string>): void {
  const id = op.operationId;
  if (typeof id !== 'string' || !OPERATION_ID.test(id)) {
    throw new SpecError(`${at}/operationId`, 'operation-id', `operationId must look like "namespace.op_name", found ${JSON.stringify(id)}`);
  }
  const earlier = seen.get(id);
  if (earlier) {
    const where = earlier.slice(1).split('/').map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
    throw new SpecError(`${at}/operationId`, 'duplicate-operation-id', `operationId ${id} is already used at ${where}`, 'rename one of them: the operationId names the SDK method (namespace.op_name), so each must be unique');
  }
  seen.set(id, at);
  const isTokenExchange = Array.isArray(op.security) && op.security.length === 0;
  const cls = op['x-retry-class'];
  if (!isTokenExchange || cls !== undefined) {
    if (typeof cls !== 'string' || !RETRY_CLASSES.has(cls)) {
      const near = typeof cls === 'string' && RETRY_CLASSES.has(cls.toUpperCase()) ? `did you mean ${cls.toUpperCase()}?` : undefined;
      throw new SpecError(`${at}/x-retry-class`, 'unknown-retry-class', `${id}: x-retry-class must be one of Q, I, U, D, N, found ${JSON.stringify(cls)}`, near ?? 'Q read-only, I idempotent, U unique create, D deduplicated by a key, N never resent (REST seed section 4)');
    }
  }
  for (const [i, cond] of (op['x-retry-class-when'] ?? []).entries()) {
    if (!RETRY_CLASSES.has(cond?.class) || !Array.isArray(cond?.all) || cond.all.length === 0) {
      throw new SpecError(`${at}/x-retry-class-when/${i}`, 'retry-class-condition', `${id}: each condition needs a class (Q, I, U, D, N) and a non-empty "all" list`);
    }
    for (const [j, test] of cond.all.entries()) {
      const ok = typeof test?.field === 'string' && (('equals' in test) !== ('present' in test)) && (!('present' in test) || typeof test.present === 'boolean');
      if (!ok) throw new SpecError(`${at}/x-retry-class-when/${i}/all/${j}`, 'retry-class-condition', `${id}: a test is {field, equals} or {field, present: boolean}`);
    }
  }
  if (cls === 'D' && !op['x-dedupe-key']) {
    throw new SpecError(`${at}/x-dedupe-key`, 'dedupe-key-missing', `${id}: a D operation must name its x-dedupe-key`);
  }
}
