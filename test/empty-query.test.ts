/**
 * Optional string query parameters refuse "" before anything is sent (spec: minLength 1), because
 * strict servers such as express-openapi-validator refuse `cursor=` and the seed gives an empty
 * value no meaning. Checks every such (operation, parameter) through its generated validator, and
 * one call through the client with a fetch that records what would have been sent.
 */
import { describe, expect, it } from 'vitest';
import { ImClient, ValidationError } from '../generated/src/index.js';
import { operations } from '../generated/src/operations.js';
import type { RequestValidator } from '../generated/src/operation.js';
import { loadYaml, specOperations } from './helpers/spec.js';

const doc = loadYaml('spec/openapi.yaml');
const deref = (x: any): any =>
  x?.$ref
    ? deref(
        x.$ref
          .slice(2)
          .split('/')
          .reduce((n: any, k: string) => n[k], doc),
      )
    : x;
const funcs = operations as Record<string, { loadValidator?: () => Promise<RequestValidator> }>;

/** [operationId, parameter, is it an array of strings] for every optional free-text query parameter. */
const cases = specOperations(doc).flatMap(({ path, operation }) =>
  [...(doc.paths[path].parameters ?? []), ...(operation.parameters ?? [])]
    .map(deref)
    .filter((p: any) => p.in === 'query' && !p.required)
    .map((p: any) => [String(operation.operationId), String(p.name), deref(p.schema)] as const)
    .filter(
      ([, , s]) =>
        (s.type === 'string' || (s.type === 'array' && s.items?.type === 'string')) && !s.enum && !s.items?.enum,
    )
    .map(([id, name, s]) => [id, name, s.type === 'array'] as const),
);

/** Valid values for the other required params of an operation (path parameters only here). */
function requiredPathParams(id: string): Record<string, string> {
  const found = specOperations(doc).find((o) => o.operation.operationId === id)!;
  const params = [...(doc.paths[found.path].parameters ?? []), ...(found.operation.parameters ?? [])].map(deref);
  return Object.fromEntries(
    params
      .filter((p: any) => p.in === 'path' && !['org_name', 'app_name'].includes(p.name))
      .map((p: any) => [p.name, 'x1']),
  );
}

describe('empty optional query values', () => {
  it('there are 41 of them (31 cursor, 4 known_version, 3 reason, from, to, keys)', () => {
    expect(cases).toHaveLength(41);
    expect(cases.filter(([, n]) => n === 'cursor')).toHaveLength(31);
    expect(cases.filter(([, n]) => n === 'known_version')).toHaveLength(4);
  });

  it.each(cases)(
    '%s refuses %s: "" with a message naming the field; a real value passes',
    async (id, name, isArray) => {
      const validator = await funcs[id]!.loadValidator!();
      const base = requiredPathParams(id);
      const issues = validator.validate({ ...base, [name]: isArray ? [''] : '' });
      expect(issues).toContainEqual(
        expect.objectContaining({ pointer: isArray ? `/${name}/0` : `/${name}`, rule: 'minLength' }),
      );
      expect(issues!.map((i) => i.message).join(' ')).toMatch(new RegExp(`\`${name}(\\[0\\])?\` must not be empty`));
      const ok = validator.validate({ ...base, [name]: isArray ? ['k'] : 'v' });
      expect(ok?.filter((i) => i.pointer.startsWith(`/${name}`)) ?? []).toEqual([]);
    },
  );

  it('im.users.list({ cursor: "" }) throws a ValidationError naming cursor and sends nothing', async () => {
    const sent: string[] = [];
    const im = new ImClient({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'acme#chat',
      clientId: 'c',
      clientSecret: 's',
      fetch: async (url: string) => (sent.push(url), new Response('{}', { status: 500 })),
    } as unknown as ConstructorParameters<typeof ImClient>[0]);
    const err = await im.users.list({ cursor: '' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/`cursor` must not be empty/);
    expect((err as Error).message).toMatch(/nothing was sent/);
    expect(sent).toEqual([]);
  });
});
