/**
 * The real-world corpus (issue 26): public OpenAPI 3.1 documents grafted into a copy of a spec of
 * ours, one namespace each, changed only where our conventions need it:
 * - each path prefixed with /{org_name}/{app_name}/<namespace> (the namespace keeps two
 *   documents' `/files` apart), the prefix's two parameters declared on the path item;
 * - each operationId written `<namespace>.<snake_case id>` (one derived from method and path
 *   when the document has none; `_2` after one the document uses twice);
 * - `x-retry-class` added: Q for GET, HEAD and OPTIONS, N for the rest;
 * - each component whose name another document (or the base) already uses renamed
 *   `<Namespace><Name>`, its $refs and discriminator mappings with it (a graft artefact, not a construct: every other
 *   component keeps its name as written, so the generator's own naming rule is what is tested);
 * - `webhooks` kept under a namespaced name; `security`, `servers` and `tags` dropped (ours apply).
 * Nothing else is touched: schemas, parameters, bodies and responses stay as the documents wrote
 * them. Pure: documents in, document out.
 */
const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const COMPONENT_KINDS = [
  'schemas',
  'parameters',
  'requestBodies',
  'responses',
  'headers',
  'examples',
  'links',
  'callbacks',
  'pathItems',
];

export interface CorpusDocument {
  namespace: string;
  doc: Record<string, any>;
}

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .replace(/^(?=[0-9])/, 'n');
const pascal = (s: string) => s.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());

function operationIdOf(ns: string, method: string, path: string, op: any): string {
  const raw = typeof op.operationId === 'string' && op.operationId ? op.operationId : `${method}_${path}`;
  return `${ns}.${snake(raw) || method}`;
}

/** Rewrites every `$ref` of `node` with `rename` (pointer → pointer). */
function rewriteRefs(node: any, rename: (ref: string) => string): any {
  if (Array.isArray(node)) return node.map((v) => rewriteRefs(v, rename));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' ? rename(v) : rewriteRefs(v, rename);
  // a discriminator mapping's values are references too
  const mapping = out.discriminator?.mapping;
  if (mapping && typeof mapping === 'object')
    out.discriminator = {
      ...out.discriminator,
      mapping: Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, typeof v === 'string' ? rename(v) : v])),
    };
  return out;
}

export function graft(base: Record<string, any>, documents: readonly CorpusDocument[]): Record<string, any> {
  const out = structuredClone(base);
  const ids = new Set<string>();
  // an operationId used twice (an invalid document: Redoc's demo has one) takes _2, _3…
  const uniqueId = (id: string) => {
    let unique = id;
    for (let n = 2; ids.has(unique); n++) unique = `${id}_${n}`;
    ids.add(unique);
    return unique;
  };
  out.components ??= {};
  out.webhooks ??= {};
  for (const { namespace: ns, doc } of documents) {
    const renames = new Map<string, string>();
    for (const kind of COMPONENT_KINDS) {
      for (const name of Object.keys(doc.components?.[kind] ?? {})) {
        if (out.components[kind]?.[name] === undefined) continue;
        renames.set(`#/components/${kind}/${name}`, `#/components/${kind}/${pascal(ns)}${name}`);
      }
    }
    const rename = (ref: string) => {
      for (const [from, to] of renames)
        if (ref === from || ref.startsWith(`${from}/`)) return to + ref.slice(from.length);
      return ref;
    };
    const copy = rewriteRefs(doc, rename);
    for (const kind of COMPONENT_KINDS) {
      for (const [name, value] of Object.entries<any>(copy.components?.[kind] ?? {})) {
        out.components[kind] ??= {};
        const target = renames.get(`#/components/${kind}/${name}`)?.split('/').pop() ?? name;
        out.components[kind][target] = value;
      }
    }
    for (const [path, item] of Object.entries<any>(copy.paths ?? {})) {
      const grafted: Record<string, any> = { ...item };
      grafted.parameters = [
        { $ref: '#/components/parameters/OrgName' },
        { $ref: '#/components/parameters/AppName' },
        ...(item.parameters ?? []),
      ];
      for (const method of OPERATION_KEYS) {
        const op = item[method];
        if (!op || typeof op !== 'object') continue;
        const { security: _security, servers: _servers, ...rest } = op;
        grafted[method] = {
          ...rest,
          operationId: uniqueId(operationIdOf(ns, method, path, op)),
          'x-retry-class': ['get', 'head', 'options'].includes(method) ? 'Q' : 'N',
        };
      }
      delete grafted.servers;
      out.paths[`/{org_name}/{app_name}/${ns}${path === '/' ? '' : path}`] = grafted;
    }
    for (const [name, item] of Object.entries<any>(copy.webhooks ?? {})) out.webhooks[`${ns}_${name}`] = item;
  }
  if (!Object.keys(out.webhooks).length) delete out.webhooks;
  return out;
}

/** The corpus: fixture file → namespace (README.md beside the fixtures says where each comes from). */
export const CORPUS = [
  { file: 'cafe.yaml', namespace: 'cafe' },
  { file: 'museum.yaml', namespace: 'museum' },
  { file: 'tictactoe.yaml', namespace: 'tictactoe' },
  { file: 'redoc-3-1.yaml', namespace: 'redoc' },
  { file: 'openai.yaml', namespace: 'openai' },
  { file: 'mistral.yaml', namespace: 'mistral' },
  { file: 'together.yaml', namespace: 'together' },
] as const;
