/**
 * spec/openapi.yaml against the REST seed: every operation of section 4 is there with the seed's
 * method, path, op name and retry class, and every provenance mark explains itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { markOwners, markSentence } from '../scripts/lib/mark-sentences.js';
import { specForPrism } from '../scripts/lib/mock-server.js';
import { restSeedOperations, restSeedPath, seedSection, tableRows } from './helpers/seed.js';
import { loadYaml, provenanceMarks, specOperations } from './helpers/spec.js';

const doc = loadYaml('spec/openapi.yaml');
const ops = specOperations(doc);
const seedRows = restSeedOperations();
const byMethodPath = new Map(ops.map((o) => [`${o.method} ${o.path}`, o.operation]));
const byId = new Map(ops.map((o) => [o.operation.operationId, o]));

describe('spec/openapi.yaml covers REST seed section 4', () => {
  it('the seed lists 178 operations: the token exchange, 162 named and 15 RTC channel operations', () => {
    expect(seedRows.length).toBe(178);
    expect(seedRows.filter((r) => r.section === '4.13').length).toBe(15);
    expect(seedRows.filter((r) => r.op && r.section !== '4.1').length).toBe(162);
  });

  it('the spec has exactly the seed operations, no more', () => {
    expect(ops.length).toBe(seedRows.length);
    expect(new Set(ops.map((o) => o.operation.operationId)).size).toBe(ops.length);
  });

  it.each(seedRows.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_key, row) => {
    const operation = byMethodPath.get(`${row.method} ${row.path}`);
    expect(operation, `${row.method} ${row.path} missing`).toBeDefined();
    if (row.op) {
      expect(operation.operationId).toBe(row.op);
    } else {
      // RTC channel operations: op names are ours, under rtc., and say so.
      expect(operation.operationId).toMatch(/^rtc\.[a-z_]+$/);
      expect(operation['x-assumed']).toMatch(/names? .*ours|ours/);
    }
    if (row.section === '4.1') {
      expect(operation['x-retry-class']).toBeUndefined();
      expect(operation.security).toEqual([]);
      return;
    }
    expect(operation.security).toBeUndefined(); // inherits the root bearer App Token
    if (row.retryClass) expect(operation['x-retry-class']).toBe(row.retryClass);
    else expect(operation['x-retry-class']).toMatch(/^[QIUDN]$/);
  });
});

describe('retry-class extensions', () => {
  it('the three conditional classes of the seed are machine-readable', () => {
    const conditional = seedRows.filter((r) => r.classCell?.includes(' when '));
    expect(conditional.map((r) => r.op).sort()).toEqual(['chatrooms.send', 'messages.send', 'moderation.decide']);
    // Parse the seed's own words ("N when online_only is true") and compare with the extension.
    for (const row of conditional) {
      const when = byId.get(row.op!)!.operation['x-retry-class-when'];
      expect(when).toHaveLength(1);
      const text = row.classCell!.split('; ')[1]!;
      const [, cls, rest] = text.match(/^([QIUDN]) when (.+)$/)!;
      expect(when[0].class).toBe(cls);
      const eq = rest!.match(/^(\w+) is (\w+)$/);
      if (eq) {
        const value = eq[2] === 'true' ? true : eq[2] === 'false' ? false : eq[2];
        expect(when[0].all).toEqual([{ field: eq[1], equals: value }]);
      } else {
        const [, given, without] = rest!.match(/^(\w+) are given without (\w+)$/)!;
        expect(when[0].all).toEqual([
          { field: given, present: true },
          { field: without, present: false },
        ]);
      }
    }
    const others = ops.filter(
      (o) => o.operation['x-retry-class-when'] && !conditional.some((r) => r.op === o.operation.operationId),
    );
    expect(others).toEqual([]);
  });

  it('every D operation names its dedupe key, and the key is a declared body field', () => {
    for (const { operation } of ops.filter((o) => o.operation['x-retry-class'] === 'D')) {
      const key = operation['x-dedupe-key'];
      expect(key, operation.operationId).toMatchObject({ in: 'body' });
      expect(operation.requestBody.content['application/json'].schema.properties[key.name]).toBeDefined();
    }
    expect(byId.get('messages.send')!.operation['x-dedupe-key'].name).toBe('client_msg_id');
    expect(byId.get('rtc.remove_member')!.operation['x-dedupe-key'].name).toBe('operation_id');
    expect(byId.get('rtc.revoke_tickets')!.operation['x-dedupe-key'].name).toBe('operation_id');
    expect(byId.get('rtc.issue_tickets')!.operation['x-retry-class']).toBe('N');
  });

  it('the batch helper splits of seed section 8', () => {
    const splits = Object.fromEntries(
      ops
        .filter((o) => o.operation['x-batch-split'])
        .map((o) => [o.operation.operationId, o.operation['x-batch-split']]),
    );
    expect(splits).toEqual({
      'users.batch_create': { field: 'users', max: 100 },
      'friends.batch_add': { field: 'friends', max: 100 },
      'messages.batch_send': { field: 'usernames', max: 1000 },
    });
    for (const [id, split] of Object.entries<any>(splits)) {
      const field = byId.get(id)!.operation.requestBody.content['application/json'].schema.properties[split.field];
      expect(field.maxItems).toBe(split.max);
    }
  });
});

describe('pagination', () => {
  const seedParagraph =
    'versioned pages (accept known_version: friends, blacklist, group members, push conversation mutes)';
  it('versioned lists are exactly the four the seed names', () => {
    const versioned = ops
      .filter((o) => o.operation['x-pagination']?.kind === 'versioned')
      .map((o) => o.operation.operationId)
      .sort();
    expect(versioned).toEqual(['blacklist.list', 'friends.list', 'groups.members', 'push.mutes']);
    expect(seedParagraph).toContain('known_version');
  });
  it('every list takes a cursor and answers a page with next_cursor', () => {
    const lists = ops.filter((o) => o.operation['x-pagination']);
    expect(lists.length).toBeGreaterThan(25);
    for (const { operation } of lists) {
      const params = (operation.parameters ?? []).map((p: any) => p.$ref ?? p.name);
      expect(params, operation.operationId).toContain('#/components/parameters/Cursor');
      const pageRef = operation.responses['200'].content['application/json'].schema.$ref.split('/').pop();
      const page = doc.components.schemas[pageRef];
      expect(page.properties.next_cursor.type).toEqual(['string', 'null']);
      expect(page.properties[operation['x-pagination'].itemsField].type).toBe('array');
    }
    expect(byId.get('conversations.messages')!.operation['x-pagination'].kind).toBe('sequence');
    expect(byId.get('messages.export')!.operation['x-pagination'].kind).toBe('export');
  });
});

describe('authentication, errors and enumerations', () => {
  it('leaves jsonSchemaDialect at its 3.1 default (written out, Swagger UI shows a red box); Prism gets a copy that names it', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect('jsonSchemaDialect' in doc).toBe(false);
    const copy = specForPrism('spec/openapi.yaml');
    try {
      const forPrism = parse(readFileSync(copy.path, 'utf8'));
      expect(forPrism.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
      expect({ ...forPrism, jsonSchemaDialect: undefined }).toEqual({ ...doc, jsonSchemaDialect: undefined });
    } finally {
      copy.remove();
    }
    expect(existsSync(copy.path)).toBe(false);
  });
  it('token exchange is exactly as sections 2.1 and 4.1 give it', () => {
    const s = doc.components.schemas;
    expect(s.TokenRequest.required).toEqual(['grant_type', 'client_id', 'client_secret']);
    expect(s.TokenRequest.properties.grant_type.const).toBe('client_credentials');
    expect(s.TokenRequest.additionalProperties).toBe(false);
    expect(s.TokenResponse.properties.expires_in).toMatchObject({
      default: 604800,
      minimum: 300,
      maximum: 365 * 24 * 3600,
    });
    const token = byId.get('app.token')!;
    expect(token.path).toBe('/{org_name}/{app_name}/token');
    expect(Object.keys(token.operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    expect(token.operation.responses['401'].$ref).toBe('#/components/responses/InvalidClient');
    expect(doc.components.securitySchemes.AppToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
  it('every authenticated operation documents 401, 403 and 429 with Retry-After; invalid_client only on the exchange', () => {
    for (const { operation } of ops.filter((o) => o.operation.operationId !== 'app.token')) {
      expect(operation.responses['401'].$ref).toBe('#/components/responses/Unauthenticated');
      expect(operation.responses['403'].$ref).toBe('#/components/responses/Forbidden');
      expect(operation.responses['429'].$ref).toBe('#/components/responses/RateLimited');
    }
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
    const codes = doc.components.schemas.ErrorCode.anyOf[0].enum;
    for (const code of [
      'invalid_argument',
      'invalid_client',
      'unauthenticated',
      'permission_denied',
      'ip_not_allowed',
      'tenant_unavailable',
      'app_unavailable',
      'rate_limited',
      'already_exists',
      'not_found',
      'version_conflict',
    ])
      expect(codes).toContain(code);
    expect(doc.components.schemas.ErrorReason.anyOf[0].enum).toEqual(
      expect.arrayContaining(['app_deleted', 'tenant_closed']),
    );
  });
  it('each reusable error response shows examples whose code is one the seed gives for its status (seed 7), valid against ErrorBody', () => {
    const seven = seedSection(readFileSync(restSeedPath, 'utf8'), /^## 7\. Errors/);
    const codesOfStatus = new Map<string, Set<string>>();
    for (const [status, code] of tableRows(seven))
      codesOfStatus.set(status!, (codesOfStatus.get(status!) ?? new Set()).add(code!));
    expect([...codesOfStatus.get('403')!]).toEqual([
      'permission_denied',
      'ip_not_allowed',
      'tenant_unavailable',
      'app_unavailable',
    ]);
    // Which status each reusable response is used under, read from the operations.
    const statusOf = new Map<string, Set<string>>();
    for (const { operation } of ops)
      for (const [status, r] of Object.entries<any>(operation.responses))
        if (r.$ref)
          statusOf.set(r.$ref.split('/').pop(), (statusOf.get(r.$ref.split('/').pop()) ?? new Set()).add(status));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: 'openapi' }, 'openapi');
    const validBody = ajv.getSchema('openapi#/components/schemas/ErrorBody')!;
    const shown: Record<string, string[]> = {};
    for (const [name, response] of Object.entries<any>(doc.components.responses)) {
      const examples = Object.values<any>(response.content['application/json'].examples ?? {});
      expect(examples.length, `${name} has no example`).toBeGreaterThan(0);
      const statuses = [...(statusOf.get(name) ?? [])];
      expect(statuses.length, `${name} is not used`).toBeGreaterThan(0);
      for (const ex of examples) {
        expect(validBody(ex.value), `${name}: ${JSON.stringify(validBody.errors)}`).toBe(true);
        for (const status of statuses) {
          if (status === 'default')
            expect(['already_exists', 'not_found', 'version_conflict'], name).toContain(ex.value.error.code); // seed 7: named without a status
          // seed 7 names these codes without a status: a status for them is x-assumed on the response (issue 31)
          else if (!codesOfStatus.has(status)) {
            expect(
              response['x-assumed'],
              `${name} under ${status}: a status the seed does not give must be x-assumed`,
            ).toEqual(expect.any(String));
            expect(['already_exists', 'not_found', 'version_conflict'], name).toContain(ex.value.error.code);
          } else expect([...codesOfStatus.get(status)!], `${name} under ${status}`).toContain(ex.value.error.code);
        }
      }
      shown[name] = examples.map((e) => e.value.error.code);
    }
    // The first example is the one Swagger UI and Scalar show: each status its own code.
    expect(Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, v[0]]))).toEqual({
      InvalidArgument: 'invalid_argument',
      InvalidClient: 'invalid_client',
      Unauthenticated: 'unauthenticated',
      Forbidden: 'permission_denied',
      RateLimited: 'rate_limited',
      NotFound: 'not_found',
      Conflict: 'already_exists',
      OtherError: 'already_exists',
    });
    expect(shown.Forbidden).toEqual([...codesOfStatus.get('403')!]);
    expect(doc.components.schemas.ErrorBody.examples).toBeUndefined(); // a schema-level example would show under every status
    expect(doc.components.responses.RateLimited.headers['Retry-After'].description).toMatch(/Seconds to wait/);
  });
  it('the enumerations of seed 2.3', () => {
    const s = doc.components.schemas;
    expect(s.FriendAddMode.enum).toEqual(['need_confirm', 'allow_any', 'deny_any', null]);
    expect(s.GroupInviteMode.enum).toEqual(['allow_any', 'need_confirm', null]);
    expect(s.GroupMemberRole.enum).toEqual(['admin', 'member']);
    expect(s.GroupPushMuteMode.enum).toEqual(['none', 'mention_only']);
    expect(s.SinglePushMuteMode.enum).toEqual(['none']);
    expect(s.ModerationScene.enum).toHaveLength(10);
    expect(s.UserMuteScope.anyOf[0].enum).toEqual(['chat', 'group', 'room']);
    expect(s.ExpiresAt.type).toEqual(['string', 'null']);
    const ban = byId.get('rtc.ban')!.operation.requestBody.content['application/json'].schema;
    expect(ban.required ?? []).not.toContain('expires_at'); // omitted = unchanged
  });
});

describe('honest transcription', () => {
  const marks = provenanceMarks(doc);
  it('every x-assumed and x-not-documented mark carries a reason string', () => {
    expect(marks.length).toBeGreaterThan(50);
    const bad = marks.filter((m) => typeof m.value !== 'string' || m.value.trim().length < 10);
    expect(bad).toEqual([]);
  });
  it('every open object says it is open on purpose', () => {
    const unexplained: string[] = [];
    const walk = (node: any, pointer: string, explained: boolean) => {
      if (!node || typeof node !== 'object') return;
      const here = explained || 'x-not-documented' in node || 'x-assumed' in node;
      if (node.additionalProperties === true && node.type === 'object' && !here && !node.properties)
        unexplained.push(pointer);
      for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k}`, false);
    };
    walk(doc, '', false);
    expect(unexplained).toEqual([]);
  });
});

describe('summaries and descriptions for other tools (Swagger UI, Scalar, Redocly)', () => {
  const rowOf = (o: { method: string; path: string }) =>
    seedRows.find((r) => r.method === o.method && r.path === o.path)!;
  /** Word stems of the seed row: its op name, its RTC meaning and its path segments. */
  const seedStems = (o: { method: string; path: string }) => {
    const row = rowOf(o);
    const words = [row.op ?? '', row.meaning ?? '', row.path.replace('/{org_name}/{app_name}', '')]
      .join(' ')
      .toLowerCase()
      .split(/[^a-z]+/);
    return new Set(words.filter((w) => w.length >= 3 && !['org', 'name', 'app'].includes(w)).map((w) => w.slice(0, 4)));
  };

  it('every summary is a short sentence-case phrase, unique, not "opId (METHOD /path)" and without the operationId', () => {
    const summaries = ops.map((o) => String(o.operation.summary ?? ''));
    expect(new Set(summaries).size).toBe(ops.length);
    for (const { operation } of ops) {
      const s = String(operation.summary ?? '');
      expect(s.length, operation.operationId).toBeGreaterThan(5);
      expect(s.length, `${operation.operationId}: ${s}`).toBeLessThanOrEqual(80);
      expect(s, operation.operationId).toMatch(/^[A-Z][^A-Z]/); // sentence case: "Create a user", not "Create A User"
      expect(s, operation.operationId).not.toMatch(/\.$/);
      expect(s, operation.operationId).not.toMatch(/\((GET|POST|PUT|PATCH|DELETE) \//);
      expect(s.toLowerCase(), operation.operationId).not.toContain(String(operation.operationId).toLowerCase());
      expect(s, operation.operationId).not.toMatch(/\b[a-z]+\.[a-z_]+\b/); // no op-name-like token at all
    }
  });

  it('every summary names something of its seed row (a word of the op name, RTC meaning or path)', () => {
    const unrelated = ops.filter((o) => {
      const stems = seedStems(o);
      return !String(o.operation.summary)
        .toLowerCase()
        .split(/[^a-z]+/)
        .some((w) => stems.has(w.slice(0, 4)));
    });
    expect(unrelated.map((o) => `${o.operation.operationId}: ${o.operation.summary}`)).toEqual([]);
  });

  it('every description states the inputs exactly as the seed row names them, and the retry class in words', () => {
    for (const o of ops) {
      const row = rowOf(o);
      const d = String(o.operation.description ?? '');
      if (row.section === '4.1') continue;
      if (row.meaning !== null) expect(d, o.operation.operationId).toContain(`Seed 4.13: "${row.meaning}"`);
      else if (row.inputs)
        for (const part of row.inputs.split('; ')) expect(d, o.operation.operationId).toContain(part);
      else expect(d, o.operation.operationId).toContain('names no inputs besides the path');
      expect(d, o.operation.operationId).toContain(`Retry class ${o.operation['x-retry-class']}: `);
      expect(d.split('\n')[0]!.length, o.operation.operationId).toBeGreaterThan(10);
    }
  });

  it('every x-assumed / x-not-documented reason is also stated in the nearest description (run scripts/spec-mark-sentences.ts)', () => {
    const owners = markOwners(doc);
    expect(owners.length).toBeGreaterThan(250);
    const missing = owners.filter((m) => !String(m.owner.description ?? '').includes(m.reason.trim()));
    expect(missing.map((m) => `/${m.ownerPath.join('/')}: ${markSentence(m.key, m.reason)}`)).toEqual([]);
    // A mark inside an extension value (x-pagination …) is stated on the operation that holds it.
    const pagination = owners.find(
      (m) => JSON.stringify(m.ownerPath) === JSON.stringify(['paths', '/{org_name}/{app_name}/users', 'get']),
    );
    expect(pagination?.owner.description).toMatch(/Assumed: the seed names cursor, known_version and next_cursor/);
  });

  it('optional string query parameters refuse "" (minLength 1), since the seed gives no meaning to an empty value', () => {
    const deref = (x: any): any =>
      x?.$ref
        ? deref(
            x.$ref
              .slice(2)
              .split('/')
              .reduce((n: any, k: string) => n[k], doc),
          )
        : x;
    let checked = 0;
    for (const { path, operation } of ops) {
      for (const raw of [...(doc.paths[path].parameters ?? []), ...(operation.parameters ?? [])]) {
        const p = deref(raw);
        if (p.in !== 'query' || p.required) continue;
        const s = deref(p.schema);
        const str = s.type === 'string' ? s : s.type === 'array' && s.items?.type === 'string' ? s.items : null;
        if (!str || str.enum) continue;
        checked++;
        expect(str.minLength, `${operation.operationId} ${p.name}`).toBe(1);
        expect(p['x-assumed'], `${operation.operationId} ${p.name}`).toMatch(/minLength 1 is ours/);
      }
    }
    expect(checked).toBe(41);
  });
});
