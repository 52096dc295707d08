/**
 * Checks spec/callbacks.asyncapi.yaml against the AsyncAPI parser and against the seed it was
 * transcribed from (../shared/seeds/001_232788093b8ab2b9.txt). The seed's lists are read from
 * its markdown at test time, never copied here, so a seed edit shows up as a failing test.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from '@asyncapi/parser';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const specPath = fileURLToPath(new URL('../spec/callbacks.asyncapi.yaml', import.meta.url));
const seedPath = fileURLToPath(new URL('../../shared/seeds/001_232788093b8ab2b9.txt', import.meta.url));
const specText = readFileSync(specPath, 'utf8');
const seed = readFileSync(seedPath, 'utf8');
const spec = parseYaml(specText) as Obj;

// ------------------------------------------------------------------ helpers

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function get(root: Json, path: string): Json {
  let cur: Json = root;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) cur = cur[Number(part)] ?? null;
    else if (isObj(cur)) cur = cur[part] ?? null;
    else return null;
  }
  return cur;
}

function obj(path: string): Obj {
  const v = get(spec, path);
  if (!isObj(v)) throw new Error(`spec has no object at ${path}`);
  return v;
}

function arr(path: string): Json[] {
  const v = get(spec, path);
  if (!Array.isArray(v)) throw new Error(`spec has no array at ${path}`);
  return v;
}

const schemas = (): Obj => obj('components.schemas');

function resolveRef(node: Json): Json {
  if (isObj(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    return resolveRef(get(spec, node.$ref.slice(2).split('/').join('.')));
  }
  return node;
}

/** Property names of a schema, following $ref and allOf. */
function propertyNames(node: Json): Set<string> {
  const s = resolveRef(node);
  const out = new Set<string>();
  if (!isObj(s)) return out;
  if (isObj(s.properties)) for (const k of Object.keys(s.properties)) out.add(k);
  if (Array.isArray(s.allOf)) for (const part of s.allOf) for (const k of propertyNames(part)) out.add(k);
  return out;
}

/** Required names of a schema, following $ref and allOf. */
function requiredNames(node: Json): Set<string> {
  const s = resolveRef(node);
  const out = new Set<string>();
  if (!isObj(s)) return out;
  if (Array.isArray(s.required)) for (const k of s.required) out.add(String(k));
  if (Array.isArray(s.allOf)) for (const part of s.allOf) for (const k of requiredNames(part)) out.add(k);
  return out;
}

/** Every [path, key, value] in the document. */
function* walk(node: Json, path: string[] = []): Generator<[string[], string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* walk(v, [...path, String(i)]);
  } else if (isObj(node)) {
    for (const [k, v] of Object.entries(node)) {
      yield [path, k, v];
      yield* walk(v, [...path, k]);
    }
  }
}

// Seed markdown: sections by heading, tables as rows of cells.

function seedSection(heading: RegExp): string {
  const lines = seed.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && heading.test(l));
  if (start < 0) throw new Error(`seed has no heading ${heading}`);
  const level = (lines[start]!.match(/^#+/) ?? [''])[0].length;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    const m = lines[i]!.match(/^(#+) /);
    if (m && m[1]!.length <= level) {
      end = i;
      break;
    }
  }
  return lines.slice(start + 1, end).join('\n');
}

/** Markdown tables of a text: each table is its header row plus data rows (separator removed). */
function tables(text: string): string[][][] {
  const out: string[][][] = [];
  let cur: string[][] | null = null;
  for (const line of text.split('\n')) {
    if (line.trim().startsWith('|')) {
      const cells = line
        .trim()
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      if (!cur) {
        cur = [];
        out.push(cur);
      }
      cur.push(cells);
    } else {
      cur = null;
    }
  }
  return out;
}

function tableWithHeader(text: string, firstHeader: string): string[][] {
  const t = tables(text).find((rows) => rows[0]?.[0]?.toLowerCase() === firstHeader.toLowerCase());
  if (!t) throw new Error(`seed section has no table starting with column "${firstHeader}"`);
  return t.slice(1);
}

/** Split "a, b (c, d), e" on top-level commas. */
function splitTopLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const section6 = seedSection(/^## 6\. Events/);
const namedTypes = (() => {
  const m = section6.match(/Event types named: (.+?)\.\s/);
  if (!m) throw new Error('seed section 6 has no "Event types named:" line');
  return m[1]!.split(',').map((s) => s.trim());
})();
const knownTypeConsts = (): string[] =>
  (arr('components.schemas.EventType.anyOf') as Obj[])
    .filter((b) => typeof b.const === 'string')
    .map((b) => String(b.const));

/** Components schemas whose properties.type.const is the given event type. */
function eventSchemasFor(type: string): [string, Obj][] {
  return Object.entries(schemas()).filter(
    (e): e is [string, Obj] => isObj(e[1]) && get(e[1], 'properties.type.const') === type,
  );
}

// ------------------------------------------------------------------ (a) parser

describe('callbacks.asyncapi.yaml: AsyncAPI parser', () => {
  it('parses as AsyncAPI 3.0.0 with no error and no unexplained warning', async () => {
    expect(spec.asyncapi).toBe('3.0.0');
    const { document, diagnostics } = await new Parser().parse(specText);
    // Keep in step with the allow-list of scripts/lint-spec.ts (currently empty).
    const allowed = new Set<string>();
    const serious = diagnostics
      .filter((d) => d.severity <= 1 && !allowed.has(String(d.code)))
      .map((d) => `${d.severity} ${String(d.code)} ${d.path.join('.')}: ${d.message}`);
    expect(serious).toEqual([]);
    expect(document).toBeDefined();
    const messageNames = document!
      .allMessages()
      .all()
      .map((m) => m.name());
    for (const name of ['verify', 'event', 'hook', ...namedTypes]) expect(messageNames).toContain(name);
  });
});

// ------------------------------------------------------------------ (b) seed coverage

describe('callbacks.asyncapi.yaml covers the seed', () => {
  it('has a schema and a message for every event type named in section 6', () => {
    expect(namedTypes.length).toBeGreaterThanOrEqual(8);
    const messages = Object.values(obj('components.messages')).filter(isObj);
    for (const type of namedTypes) {
      expect(knownTypeConsts(), type).toContain(type);
      const found = eventSchemasFor(type);
      expect(found.length, `event schema for ${type}`).toBe(1);
      expect(
        messages.some((m) => m.name === type),
        `message for ${type}`,
      ).toBe(true);
      // named by the seed: no x-assumed on the event schema itself
      expect(found[0]![1]['x-assumed'], type).toBeUndefined();
      // listed in the UnknownEvent exclusion so that a known type never falls back
      expect(get(spec, 'components.schemas.UnknownEvent.properties.type.not.enum')).toContain(type);
    }
  });

  it('has as many rtc_channel.* types as section 6 counts, each name marked x-assumed', () => {
    const m = section6.match(/add (\d+) event types with the prefix ([a-z_]+)\.\*/);
    expect(m).not.toBeNull();
    const [count, prefix] = [Number(m![1]), m![2]!];
    const rtc = knownTypeConsts().filter((t) => t.startsWith(`${prefix}.`));
    expect(new Set(rtc).size).toBe(count);
    for (const type of rtc) {
      const found = eventSchemasFor(type);
      expect(found.length, type).toBe(1);
      expect(typeof found[0]![1]['x-assumed'], type).toBe('string');
      expect(get(spec, 'components.schemas.UnknownEvent.properties.type.not.enum')).toContain(type);
    }
    const prefixes = arr('components.schemas.EventType.x-event-prefixes') as Obj[];
    expect(prefixes).toContainEqual(expect.objectContaining({ prefix: `${prefix}.`, count }));
  });

  it('lists every event family named in section 6', () => {
    const m = section6.match(/Event families named: (.+?)\.\s/);
    expect(m).not.toBeNull();
    const families = arr('components.schemas.EventType.x-event-families') as Obj[];
    for (const entry of splitTopLevel(m![1]!)) {
      const [, name, inner] = entry.match(/^([a-z_]+)(?: \((.+)\))?$/) ?? [];
      expect(name, entry).toBeDefined();
      const fam = families.find((f) => f.family === name);
      expect(fam, name).toBeDefined();
      if (inner) expect(fam!.includes).toEqual(inner.split(',').map((s) => s.trim()));
    }
  });

  it('declares every header of 2.3 on the three messages (X-IM-Hook only on hook)', () => {
    const rows = tableWithHeader(seedSection(/^### 2\.3 /), 'Header');
    expect(rows.length).toBe(9);
    const byKind: Record<string, Json> = {
      verify: get(spec, 'components.messages.Verify.headers'),
      event: get(spec, 'components.messages.Event.headers'),
      hook: get(spec, 'components.messages.Hook.headers'),
    };
    for (const [header, meaning] of rows as [string, string][]) {
      for (const [kind, schema] of Object.entries(byKind)) {
        const props = propertyNames(schema);
        const req = requiredNames(schema);
        if (header === 'X-IM-Hook' && kind !== 'hook') {
          expect(props.has(header), `${kind} must not carry ${header}`).toBe(false);
        } else {
          expect(props.has(header), `${kind} ${header}`).toBe(true);
          expect(req.has(header), `${kind} requires ${header}`).toBe(true);
        }
      }
      // fixed values of the table are the schema's constants
      if (header === 'Content-Type' || header === 'User-Agent') {
        expect(get(spec, `components.schemas.CommonHeaders.properties.${header}.const`)).toBe(meaning);
      }
    }
  });

  it('has the common body fields of 2.4, the kind-specific fields and the event item of 2.5', () => {
    const common = tableWithHeader(seedSection(/^### 2\.4 /), 'Field').map((r) => r[0]!);
    for (const msg of ['Verify', 'Event', 'Hook']) {
      const payload = get(spec, `components.messages.${msg}.payload`);
      for (const f of common) expect(requiredNames(payload).has(f), `${msg}.${f}`).toBe(true);
    }
    expect(requiredNames(get(spec, 'components.messages.Verify.payload'))).toContain('challenge');
    expect(requiredNames(get(spec, 'components.messages.Event.payload'))).toContain('events');
    for (const f of ['hook', 'timeout_ms', 'test', 'data']) {
      expect(requiredNames(get(spec, 'components.messages.Hook.payload'))).toContain(f);
    }
    const item = tableWithHeader(seedSection(/^### 2\.5 /), 'Field').map((r) => r[0]!);
    for (const f of item) expect(requiredNames({ $ref: '#/components/schemas/EventItemBase' })).toContain(f);
  });

  it('has the origin values of 2.6, null only for presence.changed', () => {
    const origins = tableWithHeader(seedSection(/^### 2\.6 /), 'origin').map((r) => r[0]!);
    const nonNull = origins.filter((o) => o !== 'null');
    expect(get(spec, 'components.schemas.Origin.enum')).toEqual(nonNull);
    expect(get(spec, 'components.schemas.OriginOrNull.enum')).toEqual([...nonNull, null]);
    expect(get(spec, 'components.schemas.PresenceChangedData.properties.origin.$ref')).toBe(
      '#/components/schemas/OriginOrNull',
    );
    for (const [name, s] of Object.entries(schemas())) {
      if (name.endsWith('Data') && name !== 'PresenceChangedData' && name !== 'UnknownEventData' && isObj(s)) {
        const ref = get(s, 'properties.origin.$ref');
        if (ref !== null) expect(ref, name).toBe('#/components/schemas/Origin');
      }
    }
  });

  it('gives the six-digit fields of 2.6 a distinct microsecond format', () => {
    const m = seedSection(/^### 2\.6 /).match(/exceptions with six microsecond digits: (.+?) \(compare/);
    expect(m).not.toBeNull();
    const micro = get(spec, 'components.schemas.TimestampMicro');
    expect(get(micro, 'format')).toBe('date-time-micro');
    expect(String(get(micro, 'pattern'))).toContain('[0-9]{6}');
    expect(String(get(spec, 'components.schemas.TimestampMs.pattern'))).toContain('[0-9]{3}');
    for (const part of m![1]!.split(',')) {
      const [, type, field] = part.trim().match(/^([a-z_.]+) field ([a-z_]+)$/) ?? [];
      expect(type, part).toBeDefined();
      const [, schema] = eventSchemasFor(type!)[0]!;
      const data = resolveRef(get(schema, 'properties.data'));
      expect(get(data, `properties.${field}.allOf.0.$ref`), `${type}.${field}`).toBe(
        '#/components/schemas/TimestampMicro',
      );
    }
  });

  it('has every url_not_allowed rule of 2.2 with its cause', () => {
    const rows = tableWithHeader(seedSection(/^### 2\.2 /), 'rule');
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const rules = arr('x-url-rules.rules') as Obj[];
    expect(rules.length).toBe(rows.length);
    for (const [rule, cause] of rows) expect(rules).toContainEqual({ rule, cause });
    expect(obj('x-url-rules.rejection')).toMatchObject({
      status: 400,
      code: 'invalid_argument',
      reason: 'url_not_allowed',
    });
    // the send-time failure reasons of 2.2 and section 7
    const reasons = (arr('x-url-rules.sendFailureReasons') as Obj[]).map((r) => r.reason);
    for (const m of seedSection(/^## 7\. Errors/).matchAll(/reason ([a-z_]+)/g)) expect(reasons).toContain(m[1]);
  });

  it('has every limit row of section 8 with its text', () => {
    const rows = tableWithHeader(seedSection(/^## 8\. Limits/), 'Limit');
    expect(rows.length).toBeGreaterThanOrEqual(19);
    const limits = arr('x-limits') as Obj[];
    expect(limits.length).toBe(rows.length);
    for (const [limit, value] of rows) expect(limits).toContainEqual(expect.objectContaining({ limit, value }));
  });

  it('turns the retry waits of section 8 into the seconds of x-delivery', () => {
    const row = tableWithHeader(seedSection(/^## 8\. Limits/), 'Limit').find((r) => r[0]!.startsWith('retry wait'));
    const unit: Record<string, number> = { s: 1, min: 60, h: 3600 };
    const waits = row![1]!
      .split(';')[0]!
      .split(',')
      .map((w) => {
        const [n, u] = w.trim().split(' ');
        return Number(n) * unit[u!]!;
      });
    const delivery = obj('operations.receiveEvent.x-delivery');
    expect(get(delivery, 'retry.waitsSeconds')).toEqual(waits);
    expect(get(delivery, 'retry.jitterPercent')).toBe(Number(row![1]!.match(/by (\d+) percent/)![1]));
    expect(get(delivery, 'retry.maxSends')).toBe(waits.length + 1);
    expect(get(delivery, 'guarantee')).toBe('at-least-once');
    expect(get(delivery, 'ordering')).toBe('none');
    expect(get(delivery, 'retry.retryAfter.capSeconds')).toBe(3600);
    expect(get(delivery, 'retry.retryAfter.statuses')).toEqual([429, 503]);
    expect(get(delivery, 'batching.eventsPerRequest')).toMatchObject({ min: 1, max: 100 });
    expect(get(delivery, 'batching.maxBodyBytes')).toBe(1024 * 1024);
    expect(get(delivery, 'circuitBreaker')).toMatchObject({
      consecutiveFailures: 5,
      initialPauseSeconds: 30,
      maxPauseSeconds: 300,
    });
    expect(get(delivery, 'backlog.maxPendingPerAddress')).toBe(500_000);
    const bestEffort = section6
      .match(/Best effort: (.+?) are buffered/)![1]!
      .replace(' and ', ', ')
      .split(',')
      .map((s) => s.trim());
    expect(get(delivery, 'bestEffort.types')).toEqual(bestEffort);
    for (const t of bestEffort) expect(eventSchemasFor(t)[0]![1]['x-best-effort'], t).toBe(true);
  });

  it('has every address setting of 2.1 with its default and rule', () => {
    const rows = tableWithHeader(seedSection(/^### 2\.1 /), 'Setting');
    const settings = arr('x-address-settings.settings') as Obj[];
    expect(settings.length).toBe(rows.length);
    for (const [setting, def, rule] of rows) {
      const s = settings.find((x) => x.setting === setting);
      expect(s, setting).toBeDefined();
      expect(s!.rule).toBe(rule);
      if (def === 'none') expect(s!.default).toBeNull();
      else if (/^\d+( ms)?$/.test(def!)) expect(s!.default).toBe(Number(def!.split(' ')[0]));
      else expect(s!.default).toBe(def);
    }
  });

  it('has the address states and transitions and the delivery-item states of section 3', () => {
    const s3 = seedSection(/^## 3\. States/);
    const [stateTable, transitionTable] = tables(s3);
    const states = arr('x-states.address.states') as Obj[];
    for (const [state, ev, sync] of stateTable!.slice(1)) {
      expect(states).toContainEqual({ state, eventCallbacks: ev, synchronousCallbacks: sync });
    }
    const transitions = arr('x-states.address.transitions') as Obj[];
    expect(transitions.length).toBe(transitionTable!.length - 1);
    for (const [from, trigger, condition, to, also] of transitionTable!.slice(1)) {
      expect(transitions).toContainEqual({ from, trigger, condition: condition || null, to, also: also || null });
    }
    const itemStates = s3
      .match(/Delivery item states: (.+?)\.\s/)![1]!
      .split(',')
      .map((x) => x.trim());
    expect(get(spec, 'x-states.deliveryItem.states')).toEqual(itemStates);
  });

  it('quotes every "not shown" line of the seed in a mark', () => {
    const gaps = seed.split('\n').filter((l) => /: not shown\.$/.test(l.trim()));
    expect(gaps.length).toBeGreaterThanOrEqual(6);
    const reasons = [...walk(spec)]
      .filter(([, k]) => k === 'x-assumed' || k === 'x-not-documented')
      .map(([, , v]) => String(v));
    for (const gap of gaps)
      expect(
        reasons.some((r) => r.includes(gap.trim())),
        gap,
      ).toBe(true);
  });
});

// ------------------------------------------------------------------ (c) provenance marks

describe('callbacks.asyncapi.yaml provenance marks', () => {
  const marks = [...walk(spec)].filter(([, k]) => k === 'x-assumed' || k === 'x-not-documented');

  it('gives every x-assumed and x-not-documented mark a reason string', () => {
    expect(marks.length).toBeGreaterThan(10);
    for (const [path, key, value] of marks) {
      expect(typeof value, `${path.join('.')}.${key}`).toBe('string');
      expect(String(value).trim().length, `${path.join('.')}.${key}`).toBeGreaterThan(10);
    }
  });

  it('leaves every not-documented schema open', () => {
    for (const [path, key] of marks) {
      if (key !== 'x-not-documented') continue;
      const owner = get(spec, path.join('.'));
      if (isObj(owner) && owner.type === 'object') expect(owner.additionalProperties, path.join('.')).toBe(true);
    }
  });

  it('marks the hook types we named, the hook answer and the signature as assumed', () => {
    const branches = arr('components.schemas.HookType.anyOf') as Obj[];
    const named = branches.filter((b) => typeof b.const === 'string');
    expect(named.length).toBe(4);
    for (const b of named) {
      if (b.const === 'message.before_send') expect(b['x-assumed']).toBeUndefined();
      else expect(typeof b['x-assumed'], String(b.const)).toBe('string');
    }
    expect(branches.some((b) => b.const === undefined && b.type === 'string')).toBe(true);
    expect(get(spec, 'components.schemas.HookAnswer.properties.decision.enum')).toEqual(['allow', 'reject', 'rewrite']);
    expect(typeof get(spec, 'components.schemas.HookAnswer.x-assumed')).toBe('string');
  });
});

// ------------------------------------------------------------------ (d) structure

describe('callbacks.asyncapi.yaml structure', () => {
  it('has the three request messages on the one receiver channel, each with an answer', () => {
    expect(Object.keys(obj('channels.receiver.messages')).sort()).toEqual(['event', 'hook', 'verify']);
    for (const [op, kind] of [
      ['receiveVerify', 'verify'],
      ['receiveEvent', 'event'],
      ['receiveHook', 'hook'],
    ] as const) {
      expect(get(spec, `operations.${op}.action`)).toBe('receive');
      expect(get(spec, `operations.${op}.messages.0.$ref`)).toBe(`#/channels/receiver/messages/${kind}`);
      expect(get(spec, `operations.${op}.reply.messages.0.$ref`)).toBe(
        `#/channels/receiverAnswer/messages/${kind}Answer`,
      );
      expect(
        get(spec, `components.schemas.${kind[0]!.toUpperCase()}${kind.slice(1)}Headers.properties.X-IM-Kind.const`),
      ).toBe(kind);
    }
    expect(obj('operations.receiveVerify.reply.x-answer')).toMatchObject({ withinSeconds: 5, maxReadBytes: 4096 });
    expect(obj('operations.receiveEvent.reply.x-answer')).toMatchObject({ maxReadBytes: 16384 });
    expect(obj('operations.receiveHook.reply.x-answer')).toMatchObject({ maxReadBytes: 65536 });
    expect(requiredNames({ $ref: '#/components/schemas/VerifyAnswer' })).toContain('challenge');
  });

  it('marks exactly the three version fields used for ordering', () => {
    const found = [...walk(spec)]
      .filter(([, k, v]) => k === 'x-ordering-version' && v === true)
      .map(([p]) => p.join('.'))
      .sort();
    expect(found).toEqual(
      [
        'components.schemas.FriendAddedData.properties.version',
        'components.schemas.GroupMembersAddedData.properties.member_version',
        'components.schemas.PresenceChangedData.properties.version',
      ].sort(),
    );
    // the same three as the seed's rule 2 of section 6, and in x-delivery
    const m = section6.match(/judge newness by version fields \((.+?)\)/)![1]!;
    const pairs = m.split(',').map((p) => p.trim().split(' ') as [string, string]);
    expect(get(spec, 'operations.receiveEvent.x-delivery.newness.orderingVersionFields')).toEqual(
      expect.arrayContaining(pairs.map(([eventType, field]) => ({ eventType, field }))),
    );
  });

  it('points each x-truncated-refetch at a GET operation of the REST spec, its parameters at kept data fields', () => {
    const rest = parseYaml(
      readFileSync(fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url)), 'utf8'),
    ) as Obj;
    const marks = [...walk(spec)].filter(([, k]) => k === 'x-truncated-refetch');
    expect(marks.length).toBeGreaterThan(0);
    for (const [path, , mark] of marks) {
      const m = mark as { operationId: string; params: Record<string, string> };
      const found = Object.entries(rest.paths as Obj).find(
        ([, item]) => isObj(item) && isObj(item.get) && item.get.operationId === m.operationId,
      );
      expect(found, `${path.join('.')}: operation ${m.operationId}`).toBeDefined();
      const [route] = found!;
      for (const [param, field] of Object.entries(m.params)) {
        expect(route, `${m.operationId} takes {${param}}`).toContain(`{${param}}`);
        // the field survives truncation (ids stay: seed 2.6) and is required in the data shape
        const dataRef = get(spec, `${path.join('.')}.properties.data.$ref`) as string;
        const data = get(spec, dataRef.replace('#/', '').replace(/\//g, '.')) as Obj;
        expect(data.required as Json[], `${dataRef} requires ${field}`).toContain(field);
      }
    }
  });

  it('gives group.members_added its full data shape', () => {
    const text = seedSection(/^### 2\.6 /).match(/Data shape of group\.members_added: (.+?)\. The value/)![1]!;
    const fields = splitTopLevel(text.replace(/;/g, ',')).map((f) => f.split(' ')[0]!);
    expect(propertyNames({ $ref: '#/components/schemas/GroupMembersAddedData' })).toEqual(
      new Set([...fields, 'truncated']),
    );
    const member = text
      .match(/array of objects with (.+?)\)/)![1]!
      .replace(' and ', ', ')
      .split(',')
      .map((s) => s.trim());
    expect([...propertyNames({ $ref: '#/components/schemas/GroupMemberAdded' })]).toEqual(member);
  });

  it('defines the signature scheme once and points the header at it', () => {
    const defs = [...walk(spec)].filter(([, k]) => k === 'x-signature');
    expect(defs.length).toBe(1);
    const [path, , sig] = defs[0]!;
    expect(path.join('.')).toBe('components.securitySchemes.imSignature');
    expect(sig).toMatchObject({
      scheme: 'v1',
      algorithm: 'HMAC-SHA256',
      encoding: 'hex-lowercase',
      signedPayload: ['X-IM-Timestamp', '.', 'X-IM-Nonce', '.', 'rawBody'],
    });
    expect(typeof get(sig, 'x-assumed')).toBe('string');
    const header = obj('components.schemas.CommonHeaders.properties.X-IM-Signature');
    expect(header.pattern).toBe('^v1=[0-9a-f]{64}(,v1=[0-9a-f]{64})?$');
    expect(get(sig, 'pattern')).toBe(header.pattern);
    expect(String(header.description)).toContain('components.securitySchemes.imSignature.x-signature');
    // no other value of the document restates the algorithm
    const elsewhere = [...walk(spec)].filter(
      ([p, k, v]) => typeof v === 'string' && /HMAC/.test(v) && !(p.includes('x-signature') || k === 'x-signature'),
    );
    expect(elsewhere.map(([p, k]) => [...p, k].join('.'))).toEqual([]);

    // the scheme as written produces values that the header pattern accepts
    const secret = 'test-secret-not-real';
    const [ts, nonce, body] = ['1714552200', '0123456789abcdef0123456789abcdef', '{"kind":"verify"}'];
    const one = `v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${nonce}.${body}`).digest('hex')}`;
    const two = `${one},v1=${createHmac('sha256', 'other').update(`${ts}.${nonce}.${body}`).digest('hex')}`;
    expect(new RegExp(String(header.pattern)).test(one)).toBe(true);
    expect(new RegExp(String(header.pattern)).test(two)).toBe(true);
    expect(new RegExp(String(header.pattern)).test(one.toUpperCase())).toBe(false);
  });

  it('validates sample requests: known and unknown events, null origin only for presence.changed', () => {
    // ajv-formats is CommonJS: under NodeNext its default import is the module object
    const formatsModule = addFormatsModule as unknown as { default?: typeof addFormatsModule };
    const addFormats = (formatsModule.default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv;
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('date-time-micro', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|\+00:00)$/);
    ajv.addSchema(spec as object, 'callbacks');
    const body = ajv.getSchema('callbacks#/components/schemas/EventBody')!;
    const headers = ajv.getSchema('callbacks#/components/schemas/EventHeaders')!;
    const common = {
      kind: 'event',
      request_id: 'req-1',
      app: 'acme#chat',
      endpoint_id: 'ep-1',
      sent_at: '2024-05-01T08:30:00.123Z',
    };
    const item = (type: string, data: Obj) => ({
      id: `ev-${type}`,
      type,
      occurred_at: '2024-05-01T08:29:59.001Z',
      attempt: 1,
      test: false,
      data,
    });
    const good = {
      ...common,
      events: [
        item('group.members_added', {
          origin: 'server',
          group_id: '123',
          member_version: 7,
          member_count: 3,
          members: [
            {
              username: 'alice',
              role: 'member',
              joined_via: 'create',
              inviter: null,
              joined_at: '2024-05-01T08:29:59.000Z',
            },
          ],
          operator: 'bob',
        }),
        item('presence.changed', { origin: null, version: 4 }),
        item('user.session_created', { origin: 'client', created_at: '2024-05-01T08:29:59.123456Z' }),
        item('some.future_type', { origin: 'system', anything: [1, 2] }),
      ],
    };
    expect(body(good), JSON.stringify(body.errors)).toBe(true);
    const nullOrigin = {
      ...common,
      events: [item('group.members_added', { origin: null, group_id: '1', member_version: 1 })],
    };
    expect(body(nullOrigin)).toBe(false);
    const msTime = {
      ...common,
      events: [item('user.session_created', { origin: 'client', created_at: '2024-05-01T08:29:59.123Z' })],
    };
    expect(body(msTime)).toBe(false);
    expect(body({ ...common, events: [] })).toBe(false);

    const h = {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'IM-Callback/1',
      'X-IM-Kind': 'event',
      'X-IM-Request-Id': 'req-1',
      'X-IM-Endpoint-Id': 'ep-1',
      'X-IM-Timestamp': '1714552200',
      'X-IM-Nonce': '0123456789abcdef0123456789abcdef',
      'X-IM-Signature': `v1=${'a'.repeat(64)}`,
    };
    expect(headers(h), JSON.stringify(headers.errors)).toBe(true);
    expect(headers({ ...h, 'X-IM-Kind': 'hook' })).toBe(false);
    expect(headers({ ...h, 'X-IM-Signature': `v1=${'a'.repeat(63)}` })).toBe(false);
  });
});
