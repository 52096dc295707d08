/**
 * The change-report corpus (issue 27): single edits of test/fixtures/change-corpus.yaml, each
 * with the class written down before the report was run, and a strict caller's snippet. The
 * snippet compiles against the base package; `breaksCompile` says whether it still compiles
 * against the edited one (a breaking change may break at run time only: retry class, bounds,
 * defaults). Every construct the report judges, in both directions, request and response.
 *
 * Snippets: `im` is an ImClient, `T` the package's types, `input` a string; `call` and `stats`
 * are the results of calls.get and calls.stats.
 */
import type { ChangeClass } from '../../generator/diff/compare.js';

export interface CorpusEdit {
  id: string;
  /** What is edited (for the table): operation, paging, media, params, result, type. */
  area: string;
  expected: ChangeClass | 'none';
  /** Whether the snippet stops compiling against the edited package. */
  breaksCompile: boolean;
  edit(doc: any): void;
  caller: string;
}

const P = '/{org_name}/{app_name}';
const op = (d: any, path: string, method: string) => d.paths[`${P}${path}`][method];
const query = (d: any, name: string) => op(d, '/calls/stats', 'get').parameters.find((p: any) => p.name === name);
const create = (d: any) => op(d, '/calls', 'post').requestBody.content['application/json'].schema;
const schemas = (d: any) => d.components.schemas;
const stats = (d: any) => schemas(d).CallStats;
const audio = "{ type: 'audio', codec: 'opus' }";
const SCREEN = {
  type: 'object',
  required: ['type', 'display'],
  properties: { type: { type: 'string' }, display: { type: 'string' } },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const CORPUS: CorpusEdit[] = [
  // ---- operations
  {
    id: 'op-removed',
    area: 'operation',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => delete d.paths[`${P}/calls/{call_id}`].get,
    caller: "await im.calls.get({ call_id: 'c' });",
  },
  {
    id: 'op-renamed',
    area: 'operation',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (op(d, '/calls/{call_id}', 'get').operationId = 'calls.fetch'),
    caller: "await im.calls.get({ call_id: 'c' });",
  },
  {
    id: 'op-added',
    area: 'operation',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) =>
      (d.paths[`${P}/calls/{call_id}/ring`] = {
        parameters: d.paths[`${P}/calls/{call_id}`].parameters,
        post: { operationId: 'calls.ring', 'x-retry-class': 'N', responses: { '204': { description: 'rung' } } },
      }),
    caller: "await im.calls.get({ call_id: 'c' });",
  },
  {
    id: 'op-deprecated',
    area: 'operation',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (op(d, '/calls/{call_id}', 'get').deprecated = true),
    caller: "await im.calls.get({ call_id: 'c' });",
  },
  {
    id: 'op-moved',
    area: 'operation',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => {
      d.paths[`${P}/calls/{call_id}/finish`] = d.paths[`${P}/calls/{call_id}/end`];
      delete d.paths[`${P}/calls/{call_id}/end`];
    },
    caller: "await im.calls.end({ call_id: 'c' });",
  },
  {
    id: 'summary-only',
    area: 'operation',
    expected: 'none',
    breaksCompile: false,
    edit: (d) => (op(d, '/calls/{call_id}', 'get').summary = 'Get a call.'),
    caller: "await im.calls.get({ call_id: 'c' });",
  },
  {
    id: 'retry-less-safe',
    area: 'retry class',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (op(d, '/calls/{call_id}/end', 'post')['x-retry-class'] = 'N'),
    caller: "await im.calls.end({ call_id: 'c' });",
  },
  {
    id: 'retry-safer',
    area: 'retry class',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (op(d, '/calls/{call_id}/end', 'post')['x-retry-class'] = 'Q'),
    caller: "await im.calls.end({ call_id: 'c' });",
  },
  {
    id: 'retry-condition-added',
    area: 'retry class',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) =>
      (op(d, '/calls/{call_id}/end', 'post')['x-retry-class-when'] = [
        { class: 'N', all: [{ field: 'reason', present: true }] },
      ]),
    caller: "await im.calls.end({ call_id: 'c', reason: 'done' });",
  },
  // ---- paging
  {
    id: 'paging-removed',
    area: 'paging',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => delete op(d, '/calls', 'get')['x-pagination'],
    caller: 'for await (const c of im.calls.list()) console.log(c.id);',
  },
  {
    id: 'page-next-cursor-renamed',
    area: 'paging',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const o = op(d, '/calls', 'get');
      o['x-pagination'].nextCursorField = 'cursor_next';
      const s = o.responses['200'].content['application/json'].schema;
      s.properties.cursor_next = s.properties.next_cursor;
      delete s.properties.next_cursor;
      s.required = ['items', 'cursor_next'];
    },
    caller: 'const page = await im.calls.list(); const next: string | null = page.body.next_cursor; console.log(next);',
  },
  {
    id: 'page-cursor-param-renamed',
    area: 'paging',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const o = op(d, '/calls', 'get');
      o['x-pagination'].cursorParam = 'after';
      o.parameters[0].name = 'after';
    },
    caller: "await im.calls.list({ cursor: 'x' });",
  },
  {
    id: 'page-envelope-field-added',
    area: 'paging',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) =>
      (op(d, '/calls', 'get').responses['200'].content['application/json'].schema.properties.total = {
        type: 'integer',
      }),
    caller: 'const page = await im.calls.list(); console.log(page.items.length, page.body.next_cursor);',
  },
  // ---- responses and media types
  {
    id: 'response-json-to-text',
    area: 'media',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) =>
      (op(d, '/calls/{call_id}/transcript', 'get').responses['200'].content = {
        'text/plain': { schema: { type: 'string' } },
      }),
    caller: "const t = await im.calls.transcript({ call_id: 'c' }); console.log(t.lines.length);",
  },
  {
    id: 'status-added-other-body',
    area: 'media',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) =>
      (op(d, '/calls/{call_id}/end', 'post').responses['202'] = {
        description: 'queued',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['queued'], properties: { queued: { type: 'boolean' } } },
          },
        },
      }),
    caller: "const r = await im.calls.end({ call_id: 'c' }); const ended: boolean = r.ended; console.log(ended);",
  },
  {
    id: 'status-added-same-body',
    area: 'media',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) =>
      (op(d, '/calls/{call_id}/end', 'post').responses['201'] = {
        description: 'ended',
        content: { 'application/json': { schema: ref('EndResult') } },
      }),
    caller: "const r = await im.calls.end({ call_id: 'c' }); const ended: boolean = r.ended; console.log(ended);",
  },
  {
    id: 'request-media-added',
    area: 'media',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => {
      const c = op(d, '/calls/{call_id}/label', 'put').requestBody.content;
      c['application/x-www-form-urlencoded'] = structuredClone(c['application/json']);
    },
    caller: "const p: T.CallsLabelParams = { call_id: 'c', label: 'x' }; await im.calls.label(p);",
  },
  {
    id: 'request-media-removed',
    area: 'media',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => delete op(d, '/calls/{call_id}/notes', 'post').requestBody.content['text/plain'],
    caller: "await im.calls.annotate({ call_id: 'c', body: 'hi' }, { contentType: 'text/plain' });",
  },
  {
    id: 'params-made-required',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (op(d, '/calls', 'get')['x-params-required'] = true),
    caller: 'await im.calls.list();',
  },
  // ---- params fields (what the caller sends)
  {
    id: 'param-added-required',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) =>
      op(d, '/calls/stats', 'get').parameters.push({
        name: 'org_unit',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    caller: "await im.calls.stats({ granularity: 'day' });",
  },
  {
    id: 'param-added-optional',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) =>
      op(d, '/calls/stats', 'get').parameters.push({ name: 'org_unit', in: 'query', schema: { type: 'string' } }),
    caller: "await im.calls.stats({ granularity: 'day' });",
  },
  {
    id: 'param-removed-closed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) =>
      (op(d, '/calls/stats', 'get').parameters = op(d, '/calls/stats', 'get').parameters.filter(
        (p: any) => p.name !== 'tz',
      )),
    caller: "await im.calls.stats({ tz: 'UTC' });",
  },
  {
    id: 'param-removed-open-body',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => delete create(d).properties.nickname,
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, nickname: 'n' });`,
  },
  {
    id: 'param-made-required',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (query(d, 'from').required = true),
    caller: "await im.calls.stats({ granularity: 'day' });",
  },
  {
    id: 'param-made-optional',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (create(d).required = ['media']),
    caller: `await im.calls.create({ to: 'bob', media: ${audio} });`,
  },
  {
    id: 'param-becomes-nullable',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (create(d).properties.nickname.type = ['string', 'null']),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, nickname: 'n' });`,
  },
  {
    id: 'param-stops-nullable',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (query(d, 'note').schema.type = 'string'),
    caller: 'await im.calls.stats({ note: null });',
  },
  {
    id: 'param-type-changed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (query(d, 'from').schema = { type: 'integer' }),
    caller: "await im.calls.stats({ from: '2024' });",
  },
  {
    id: 'param-integer-to-number',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'limit').schema.type = 'number'),
    caller: 'await im.calls.stats({ limit: 10 });',
  },
  {
    id: 'param-enum-value-added',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => query(d, 'granularity').schema.enum.push('week'),
    caller: "await im.calls.stats({ granularity: 'hour' });",
  },
  {
    id: 'param-enum-value-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (query(d, 'granularity').schema.enum = ['day']),
    caller: "await im.calls.stats({ granularity: 'hour' });",
  },
  {
    id: 'param-became-enum',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (query(d, 'region').schema = { type: 'string', enum: ['eu', 'us'] }),
    caller: 'const region: string = input; await im.calls.stats({ region });',
  },
  {
    id: 'param-enum-removed',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'granularity').schema = { type: 'string' }),
    caller: "await im.calls.stats({ granularity: 'hour' });",
  },
  {
    id: 'named-request-enum-value-added',
    area: 'type',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => schemas(d).CallKind.enum.push('screen'),
    caller:
      "const label = (k: T.CallKind): string => { switch (k) { case 'audio': return 'A'; case 'video': return 'V'; default: { const none: never = k; return none; } } }; console.log(label('audio'));",
  },
  {
    id: 'named-request-enum-value-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (schemas(d).CallKind.enum = ['audio']),
    caller: `await im.calls.create({ to: 'bob', kind: 'video', media: ${audio} });`,
  },
  {
    id: 'param-const-added',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (create(d).properties.tag = { type: 'string', const: 'v1' }),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, tag: 'v2' });`,
  },
  {
    id: 'param-const-changed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (create(d).properties.version.const = 2),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, version: 1 });`,
  },
  {
    id: 'param-const-removed',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (create(d).properties.channel = { type: 'string' }),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, channel: 'main' });`,
  },
  {
    id: 'param-oneof-branch-added',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => {
      schemas(d).ScreenMedia = SCREEN;
      const m = create(d).properties.media;
      m.oneOf.push(ref('ScreenMedia'));
      m.discriminator.mapping.screen = 'ScreenMedia';
    },
    caller: `await im.calls.create({ to: 'bob', media: ${audio} });`,
  },
  {
    id: 'param-oneof-branch-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const m = create(d).properties.media;
      m.oneOf = [ref('AudioMedia')];
      m.discriminator.mapping = { audio: 'AudioMedia' };
    },
    caller: "await im.calls.create({ to: 'bob', media: { type: 'video', resolution: 'hd' } });",
  },
  {
    id: 'param-discriminator-value-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => delete create(d).properties.media.discriminator.mapping.vid,
    caller: "await im.calls.create({ to: 'bob', media: { type: 'vid', resolution: 'hd' } });",
  },
  {
    id: 'param-discriminator-value-added',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => (create(d).properties.media.discriminator.mapping.clip = 'VideoMedia'),
    caller: "await im.calls.create({ to: 'bob', media: { type: 'vid', resolution: 'hd' } });",
  },
  {
    id: 'param-discriminator-remapped',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (create(d).properties.media.discriminator.mapping.vid = 'AudioMedia'),
    caller: "await im.calls.create({ to: 'bob', media: { type: 'vid', resolution: 'hd' } });",
  },
  {
    id: 'param-anyof-branch-added',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => create(d).properties.mode.anyOf.push({ type: 'boolean' }),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, mode: 3 });`,
  },
  {
    id: 'param-anyof-branch-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (create(d).properties.mode.anyOf = [{ type: 'string' }]),
    caller: `await im.calls.create({ to: 'bob', media: ${audio}, mode: 3 });`,
  },
  {
    id: 'union-body-branch-added',
    area: 'params',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) =>
      op(d, '/calls/search', 'post').requestBody.content['application/json'].schema.oneOf.push({
        type: 'object',
        required: ['by', 'tag'],
        additionalProperties: false,
        properties: { by: { type: 'string', const: 'tag' }, tag: { type: 'string' } },
      }),
    caller: "await im.calls.search({ by: 'time', since: 'x' });",
  },
  {
    id: 'union-body-branch-removed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => op(d, '/calls/search', 'post').requestBody.content['application/json'].schema.oneOf.pop(),
    caller: "await im.calls.search({ by: 'time', since: 'x' });",
  },
  {
    id: 'max-length-added',
    area: 'validation',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (create(d).properties.to.maxLength = 8),
    caller: `await im.calls.create({ to: 'a-long-username', media: ${audio} });`,
  },
  {
    id: 'minimum-removed',
    area: 'validation',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => delete query(d, 'limit').schema.minimum,
    caller: 'await im.calls.stats({ limit: 10 });',
  },
  {
    id: 'maximum-lowered',
    area: 'validation',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'limit').schema.maximum = 50),
    caller: 'await im.calls.stats({ limit: 80 });',
  },
  {
    id: 'pattern-added',
    area: 'validation',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'from').schema.pattern = '^\\d{4}-'),
    caller: "await im.calls.stats({ from: 'yesterday' });",
  },
  {
    id: 'format-added',
    area: 'validation',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'from').schema.format = 'date-time'),
    caller: "await im.calls.stats({ from: 'yesterday' });",
  },
  {
    id: 'format-removed',
    area: 'validation',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => delete query(d, 'created_after').schema.format,
    caller: "await im.calls.stats({ created_after: '2024-01-01T00:00:00Z' });",
  },
  {
    id: 'default-changed',
    area: 'params',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'limit').schema.default = 50),
    caller: 'await im.calls.stats({});',
  },
  {
    id: 'default-added',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'tz').schema.default = 'UTC'),
    caller: 'await im.calls.stats({});',
  },
  {
    id: 'param-deprecated',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'region').deprecated = true),
    caller: "await im.calls.stats({ region: 'eu' });",
  },
  {
    id: 'param-moved-to-header',
    area: 'params',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (query(d, 'tz').in = 'header'),
    caller: "await im.calls.stats({ tz: 'UTC' });",
  },
  // ---- result fields (what the caller reads)
  {
    id: 'result-field-added',
    area: 'result',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => (schemas(d).Call.properties.topic = { type: 'string' }),
    caller: 'console.log(call.id, call.created_at);',
  },
  {
    id: 'result-field-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      delete schemas(d).Call.properties.created_at;
      schemas(d).Call.required = ['id', 'state', 'media'];
    },
    caller: 'const at: string = call.created_at; console.log(at);',
  },
  {
    id: 'result-made-optional',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).required = ['status', 'unit']),
    caller: 'const total: number = stats.total; console.log(total);',
  },
  {
    id: 'result-made-required',
    area: 'result',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => stats(d).required.push('note'),
    caller: 'const note: string | undefined = stats.note; console.log(note);',
  },
  {
    id: 'result-becomes-nullable',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.total.type = ['integer', 'null']),
    caller: 'const total: number = stats.total; console.log(total);',
  },
  {
    id: 'result-stops-nullable',
    area: 'result',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (stats(d).properties.peak.type = 'integer'),
    caller: 'const peak: number | null | undefined = stats.peak; if (stats.peak === null) console.log(peak);',
  },
  {
    id: 'result-type-changed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.minutes.type = 'string'),
    caller: 'const m: number | undefined = stats.minutes; console.log(m);',
  },
  {
    id: 'result-integer-to-number',
    area: 'result',
    expected: 'breaking',
    breaksCompile: false,
    edit: (d) => (stats(d).properties.total.type = 'number'),
    caller: 'const total: number = stats.total; console.log(total);',
  },
  {
    id: 'result-enum-value-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => stats(d).properties.unit.enum.push('hours'),
    caller:
      "const f = (u: typeof stats.unit): number => { switch (u) { case 'seconds': return 1; case 'minutes': return 60; default: { const none: never = u; return none; } } }; console.log(f(stats.unit));",
  },
  {
    id: 'result-enum-value-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.unit.enum = ['seconds']),
    caller: "if (stats.unit === 'minutes') console.log('minutes');",
  },
  {
    id: 'named-result-enum-value-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => schemas(d).CallStatus.enum.push('ringing'),
    caller:
      "const open = (s: T.CallStatus): boolean => { switch (s) { case 'active': return true; case 'ended': return false; default: { const none: never = s; return none; } } }; console.log(open(call.state));",
  },
  {
    id: 'result-const-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.label = { type: 'string', const: 'daily' }),
    caller: "if (stats.label === 'weekly') console.log('weekly');",
  },
  {
    id: 'result-const-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.source = { type: 'string' }),
    caller: "const source: 'live' | undefined = stats.source; console.log(source);",
  },
  {
    id: 'result-oneof-branch-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      schemas(d).ScreenMedia = SCREEN;
      const m = schemas(d).Call.properties.media;
      m.oneOf.push(ref('ScreenMedia'));
      m.discriminator.mapping.screen = 'ScreenMedia';
    },
    caller:
      "const m = call.media; switch (m.type) { case 'audio': console.log(m.codec); break; case 'video': console.log(m.resolution); break; default: { const none: never = m; console.log(none); } }",
  },
  {
    id: 'result-oneof-branch-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const m = schemas(d).Call.properties.media;
      m.oneOf = [ref('AudioMedia')];
      m.discriminator.mapping = { audio: 'AudioMedia' };
    },
    caller: "if (call.media.type === 'video') console.log(call.media.resolution);",
  },
  {
    id: 'result-discriminator-value-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (schemas(d).Call.properties.media.discriminator.mapping.vid = 'VideoMedia'),
    caller:
      "const kind = (t: typeof call.media.type): string => { switch (t) { case 'audio': return 'A'; case 'video': return 'V'; default: { const none: never = t; return none; } } }; console.log(kind(call.media.type));",
  },
  {
    id: 'result-discriminator-value-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const m = schemas(d).Call.properties.media;
      m.oneOf = [ref('AudioMedia'), ref('VideoMedia')];
      m.discriminator.mapping = { audio: 'AudioMedia', vid: 'VideoMedia' };
    },
    caller: "if (call.media.type === 'video') console.log(call.media.resolution);",
  },
  {
    id: 'result-anyof-branch-added',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => stats(d).properties.score.anyOf.push({ type: 'boolean' }),
    caller: 'const score: number | string | undefined = stats.score; console.log(score);',
  },
  {
    id: 'result-anyof-branch-removed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => (stats(d).properties.score.anyOf = [{ type: 'number' }]),
    caller: "if (stats.score === 'high') console.log('high');",
  },
  {
    id: 'result-deprecated',
    area: 'result',
    expected: 'non-breaking',
    breaksCompile: false,
    edit: (d) => (stats(d).properties.note.deprecated = true),
    caller: 'console.log(stats.note);',
  },
  {
    id: 'result-array-item-type-changed',
    area: 'result',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) =>
      (op(d, '/calls/{call_id}/transcript', 'get').responses['200'].content[
        'application/json'
      ].schema.properties.lines.items = { type: 'integer' }),
    caller:
      "const t = await im.calls.transcript({ call_id: 'c' }); const first: string | undefined = t.lines[0]; console.log(first);",
  },
  // ---- exported types
  {
    id: 'schema-renamed',
    area: 'type',
    expected: 'breaking',
    breaksCompile: true,
    edit: (d) => {
      const s = schemas(d);
      s.CallEnd = s.EndResult;
      delete s.EndResult;
      const text = JSON.stringify(d.paths).replaceAll('#/components/schemas/EndResult', '#/components/schemas/CallEnd');
      d.paths = JSON.parse(text);
    },
    caller: "const r: T.EndResult = await im.calls.end({ call_id: 'c' }); console.log(r.ended);",
  },
  {
    id: 'schema-added',
    area: 'type',
    expected: 'addition',
    breaksCompile: false,
    edit: (d) => (schemas(d).Extra = { type: 'object', properties: { x: { type: 'string' } } }),
    caller: "const r: T.EndResult = await im.calls.end({ call_id: 'c' }); console.log(r.ended);",
  },
];
