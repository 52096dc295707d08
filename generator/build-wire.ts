/**
 * The wire side of one operation, for build-model: parameters by location and style, request
 * bodies by media type, success responses by kind. Refusals name the construct and what is
 * supported instead, so a maintainer knows what to change.
 */
import { BODY_PARAM } from '../templates/runtime/contract/operation-spec.js';
import { deref, type OpenApiDocument } from './load-spec.js';
import type {
  BodyKind,
  BodyModel,
  FieldModel,
  GeneratorWarning,
  JsonSchema,
  PartEncoding,
  QueryStyle,
  ResponseKind,
  StatusResponseModel,
} from './model.js';
import { bodyFieldsOf } from './transform/body-fields.js';
import { SpecError, quoted } from './spec-error.js';

const CLIENT_FILLED = new Set(['org_name', 'app_name']);

/** Headers the runtime writes itself: a header parameter may not take them over. */
const RUNTIME_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'content-length',
  'host',
  'transfer-encoding',
  'cookie',
];

/** The document's component schemas by name, made once per document (once per JSON body made it quadratic in the spec's size). */
const componentsByDoc = new WeakMap<object, Map<string, JsonSchema>>();
function componentSchemas(doc: OpenApiDocument): Map<string, JsonSchema> {
  let map = componentsByDoc.get(doc);
  if (!map) componentsByDoc.set(doc, (map = new Map(Object.entries<JsonSchema>(doc.components?.schemas ?? {}))));
  return map;
}
export interface WireParams {
  pathParams: FieldModel[];
  queryParams: FieldModel[];
  headerParams: FieldModel[];
  cookieParams: FieldModel[];
}

function derefSchema(doc: OpenApiDocument, schema: any, at: string): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) s = deref(doc, s, at);
  return s;
}

function queryStyle(id: string, at: string, p: any, schema: JsonSchema): Pick<FieldModel, 'style' | 'explode'> {
  const style: string = p.style ?? 'form';
  const explode: boolean = p.explode ?? style === 'form';
  const type = schema.type;
  const refuse = (why: string, fix: string) =>
    new SpecError(at, 'parameter-style', `${id}: query parameter ${quoted(p.name)}: ${why}`, fix);
  switch (style) {
    case 'form':
      if (!explode) return { style: 'formNoExplode', explode: false };
      return type === 'object' ? { style: 'form', explode: true } : {};
    case 'spaceDelimited':
    case 'pipeDelimited':
      if (explode)
        throw refuse(`style ${style} with explode: true is form style`, 'write style: form, or explode: false');
      return { style: style as QueryStyle, explode: false };
    case 'deepObject':
      if (!explode)
        throw refuse('style deepObject needs explode: true (OpenAPI defines no other form)', 'remove explode: false');
      // a nullable object (type [object, 'null']) is an object when sent: null is never sent
      if (
        type !== undefined &&
        type !== 'object' &&
        !(Array.isArray(type) && type.includes('object') && type.every((t: string) => t === 'object' || t === 'null'))
      )
        throw refuse(
          `style deepObject is for objects (schema type is ${quoted(type)})`,
          'give the parameter an object schema, or use style: form',
        );
      return { style: 'deepObject', explode: true };
    default:
      throw refuse(
        `style ${quoted(style)} is not supported in the query`,
        'use one of form, spaceDelimited, pipeDelimited, deepObject',
      );
  }
}

export function wireParams(
  doc: OpenApiDocument,
  id: string,
  at: string,
  params: any[],
  dedupeHeader: string | undefined,
  warnings: GeneratorWarning[] = [],
): WireParams {
  const out: WireParams = { pathParams: [], queryParams: [], headerParams: [], cookieParams: [] };
  for (const p of params) {
    const schema: JsonSchema = p.schema ?? {};
    const resolved = derefSchema(doc, schema, at) ?? {};
    const field: FieldModel = {
      name: p.name,
      required: !!p.required,
      schema,
      description: p.description,
      assumed: p['x-assumed'],
      ...(p.deprecated === true ? { deprecated: true } : {}),
      ...(resolved.default !== undefined ? { default: resolved.default } : {}),
    };
    if (p.content) {
      // a parameter serialised as a media type (JSON in the query): the caller passes the text
      warnings.push({
        pointer: at,
        rule: 'parameter-content',
        fallback: true,
        message: `${id}: parameter ${quoted(p.name)} is described with \`content\` (${Object.keys(p.content).join(', ')}): typed and sent as the string the caller writes in that media type`,
      });
      field.schema = { type: 'string' };
    }
    if (p.in === 'path') {
      if (p.style !== undefined && p.style !== 'simple') {
        throw new SpecError(
          at,
          'parameter-style',
          `${id}: path parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`,
          'remove the style (simple, the default, is the one supported)',
        );
      }
      if (resolved.type === 'array' || resolved.type === 'object') {
        throw new SpecError(
          at,
          'parameter-style',
          `${id}: path parameter ${quoted(p.name)}: ${resolved.type} path parameters are not supported`,
          'give it a string, number or integer schema',
        );
      }
      if (!CLIENT_FILLED.has(p.name)) out.pathParams.push(field);
    } else if (p.in === 'query') {
      out.queryParams.push({
        ...field,
        ...queryStyle(id, at, p, resolved),
        ...(p.allowEmptyValue === true ? { allowEmptyValue: true } : {}),
      });
    } else if (p.in === 'header') {
      const lower = String(p.name).toLowerCase();
      if (RUNTIME_HEADERS.includes(lower) || lower === dedupeHeader) {
        throw new SpecError(
          at,
          'header-parameter-reserved',
          `${id}: header parameter ${quoted(p.name)} would overwrite a header the client sends itself (${[...RUNTIME_HEADERS, ...(dedupeHeader ? [dedupeHeader] : [])].join(', ')})`,
          'remove it from the spec',
        );
      }
      if (p.style !== undefined && p.style !== 'simple')
        throw new SpecError(
          at,
          'parameter-style',
          `${id}: header parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`,
          'remove the style (simple, the default, is the one supported)',
        );
      out.headerParams.push({ ...field, ...(p.explode === true ? { explode: true } : {}) });
    } else if (p.in === 'cookie') {
      if (p.style !== undefined && p.style !== 'form')
        throw new SpecError(
          at,
          'parameter-style',
          `${id}: cookie parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`,
          'remove the style (form, the default, is the one supported)',
        );
      out.cookieParams.push(field);
    } else
      throw new SpecError(
        at,
        'parameter-location',
        `${id}: parameter ${quoted(p.name)} in ${quoted(p.in)} is not supported`,
        'write in: path, query, header or cookie',
      );
  }
  const headerNames = out.headerParams.map((h) => h.name.toLowerCase());
  const twice = headerNames.find((n, i) => headerNames.indexOf(n) !== i);
  if (twice)
    throw new SpecError(
      at,
      'header-parameter-twice',
      `${id}: header parameter ${quoted(twice)} is declared twice (header names are case-insensitive)`,
      'keep one of them',
    );
  return out;
}

export const SUPPORTED_BODY_TYPES =
  'application/json (and +json), application/x-www-form-urlencoded, multipart/form-data, text types (text/*, XML) as a string, and any other type as bytes';

/**
 * The body kind of a media type: JSON, a form, multipart; text (`text/*`, XML) as a string;
 * anything else as bytes. Never undefined: a media type the client has no codec for is sent as
 * the bytes (or text) the caller gives.
 */
export function bodyKindOf(mediaType: string): BodyKind {
  const t = mediaType.split(';')[0]!.trim().toLowerCase();
  if (t === 'application/json' || /^application\/[\w.+-]+\+json$/.test(t)) return 'json';
  if (t === 'application/x-www-form-urlencoded') return 'form';
  if (t === 'multipart/form-data') return 'multipart';
  if (/^text\/[\w.+-]+$/.test(t) || t === 'application/xml' || /^application\/[\w.+-]+\+xml$/.test(t)) return 'text';
  return 'binary';
}

/** A file part: format binary, a contentMediaType without contentEncoding, or a oneOf/anyOf with such a branch (`oneOf: [{format: binary}, {type: string}]`). */
function isFileSchema(
  s: JsonSchema | undefined,
  deref: (s: unknown) => JsonSchema | undefined = (x) => x as JsonSchema,
): boolean {
  if (!s) return false;
  if (s.format === 'binary' || (typeof s.contentMediaType === 'string' && s.contentEncoding === undefined)) return true;
  const branches: unknown[] = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : [];
  return branches.some((b) => {
    const r = deref(b);
    return (
      !!r &&
      r !== s &&
      (r.format === 'binary' || (typeof r.contentMediaType === 'string' && r.contentEncoding === undefined))
    );
  });
}

function partEncoding(raw: any): PartEncoding | undefined {
  if (!raw) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, h] of Object.entries<any>(raw.headers ?? {})) {
    const value = h?.schema?.const ?? h?.schema?.default ?? h?.example;
    if (value !== undefined) headers[name] = String(value);
  }
  const out: PartEncoding = {
    ...(raw.contentType ? { contentType: String(raw.contentType) } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
  return Object.keys(out).length ? out : undefined;
}

/**
 * Every media type of a request body, the default first: the first JSON one when there is one
 * (JSON and XML side by side: JSON unless the caller picks another with `contentType`), else the
 * first listed. `nonBody`: the names of the operation's other params: a JSON body with a field of
 * one of those names (a path parameter and a body field both `username`) is carried whole under
 * `body`, as is a JSON body that is not an object (an array, a string).
 */
export function wireBodies(
  doc: OpenApiDocument,
  id: string,
  at: string,
  requestBody: any,
  nonBody: ReadonlySet<string> = new Set(),
  warnings: GeneratorWarning[] = [],
): BodyModel[] {
  if (!requestBody) return [];
  const content: Record<string, any> = requestBody.content ?? {};
  const where = `${at}/requestBody`;
  if (!Object.keys(content).length)
    throw new SpecError(
      where,
      'body-no-content',
      `${id}: the request body lists no media type`,
      'add a media type under content, e.g. application/json with its schema',
    );
  const required = requestBody.required === true;
  const entries = Object.entries(content);
  const firstJson = entries.findIndex(([t]) => bodyKindOf(t) === 'json');
  if (firstJson > 0) entries.unshift(...entries.splice(firstJson, 1));
  const deref = (s: unknown) => derefSchema(doc, s, where);
  return entries.map(([contentType, media]): BodyModel => {
    const kind = bodyKindOf(contentType);
    const schema = deref(media?.schema);
    const whole = (why: string): BodyModel => {
      warnings.push({
        pointer: where,
        rule: 'body-whole',
        message: `${id}: the ${contentType} body ${why}: it goes whole in the params field \`${BODY_PARAM}\``,
      });
      return {
        contentType,
        kind,
        whole: true,
        fields: [
          {
            name: BODY_PARAM,
            required,
            schema: media?.schema ?? {},
            description: requestBody.description ?? `The ${contentType} body.`,
          },
        ],
        open: false,
      };
    };
    if (kind === 'binary' || kind === 'text') {
      // a text body is the string the caller gives (an XML body's schema describes the document, not the string)
      const fieldSchema = kind === 'text' ? (schema?.type === 'string' ? media.schema : { type: 'string' }) : {};
      return {
        contentType,
        kind,
        fields: [
          {
            name: BODY_PARAM,
            required,
            schema: fieldSchema,
            description: requestBody.description ?? `The ${kind === 'text' ? 'text' : 'bytes'} sent as ${contentType}.`,
          },
        ],
        open: false,
      };
    }
    let json: BodyModel;
    if (kind === 'json') {
      // JSON bodies may also be a top-level oneOf/anyOf (a union of flat params objects) or an allOf
      try {
        json = {
          ...bodyFieldsOf(media?.schema, deref, componentSchemas(doc), where, id, contentType),
          contentType,
          kind,
        };
      } catch (error) {
        if (!(error instanceof SpecError) || error.rule !== 'body-not-object') throw error;
        return whole('is not an object (nor a union of objects)');
      }
      const clash = json.fields.find((f) => nonBody.has(f.name));
      return clash
        ? whole(`has a field ${quoted(clash.name)} that is also a path, query, header or cookie parameter`)
        : json;
    }
    if (schema?.type !== 'object') {
      // a union or allOf of objects gives its fields (every branch's, each required when all require it)
      const union = (() => {
        try {
          return bodyFieldsOf(media?.schema, deref, componentSchemas(doc), where, id, contentType);
        } catch (error) {
          if (error instanceof SpecError) return undefined;
          throw error;
        }
      })();
      if (!union)
        throw new SpecError(
          where,
          'body-not-object',
          `${id}: a ${contentType} request body must have an object schema (its properties become params fields)`,
          'give it an object schema, or send other shapes as application/octet-stream or text/plain',
        );
      return {
        contentType,
        kind,
        fields: union.fields.map((f) => ({ ...f, ...fileOf(kind, f.schema, deref) })),
        open: union.open,
      };
    }
    const req = new Set<string>(schema.required ?? []);
    const fields = Object.entries<JsonSchema>(schema.properties ?? {}).map(([name, s]): FieldModel => {
      const r = derefSchema(doc, s, where);
      const file = fileOf(kind, s, deref).file;
      return {
        name,
        required: req.has(name),
        schema: s,
        description: s.description ?? r?.description,
        assumed: s['x-assumed'],
        ...(r?.deprecated === true ? { deprecated: true } : {}),
        ...(file ? { file } : {}),
      };
    });
    const encoding: Record<string, PartEncoding> = {};
    if (kind === 'multipart') {
      for (const [name, raw] of Object.entries<any>(media?.encoding ?? {})) {
        const e = partEncoding(raw);
        if (e) encoding[name] = e;
      }
    }
    return {
      contentType,
      kind,
      fields,
      open: schema.additionalProperties !== false,
      ...(Object.keys(encoding).length ? { encoding } : {}),
    };
  });
}

function fileOf(
  kind: BodyKind,
  s: JsonSchema,
  deref: (s: unknown) => JsonSchema | undefined,
): Pick<FieldModel, 'file'> {
  if (kind !== 'multipart') return {};
  const r = deref(s);
  if (isFileSchema(r, deref)) return { file: 'one' };
  return r?.type === 'array' && isFileSchema(deref(r.items), deref) ? { file: 'many' } : {};
}

function responseKindOf(content: Record<string, any> | undefined): ResponseKind {
  const types = Object.keys(content ?? {});
  if (!types.length) return 'empty';
  const kinds = types.map((t) =>
    bodyKindOf(t) === 'json' ? 'json' : bodyKindOf(t) === 'text' || t.startsWith('text/') ? 'text' : 'binary',
  );
  return kinds.includes('json') ? 'json' : kinds[0]!;
}

function responseSchema(content: Record<string, any> | undefined): JsonSchema {
  const json = Object.keys(content ?? {}).find((t) => bodyKindOf(t) === 'json');
  return json ? (content![json].schema ?? {}) : {};
}

export interface WireResponses {
  response: JsonSchema;
  responseKind: ResponseKind;
  /** Every media type the success responses list (the Accept header). */
  mediaTypes: string[];
  statusResponses?: StatusResponseModel[];
}

/**
 * Success responses: the first one's kind and schema; all of them when they differ in shape. An
 * operation without a 2xx response (only `default`, or only 4xx) reads any 2xx answer as its
 * `default` response says (or `2XX`), else as JSON of unknown shape.
 */
export function wireResponses(
  doc: OpenApiDocument,
  at: string,
  responses: any,
  successStatuses: number[],
): WireResponses {
  if (!successStatuses.length) {
    const key = ['2XX', '2xx', 'default'].find((k) => responses?.[k] !== undefined);
    const r = key ? deref(doc, responses[key], `${at}/responses`) : undefined;
    return {
      response: responseSchema(r?.content),
      responseKind: r ? responseKindOf(r.content) : 'json',
      mediaTypes: Object.keys(r?.content ?? {}),
    };
  }
  const mediaTypes = [
    ...new Set(
      successStatuses.flatMap((status) =>
        Object.keys(deref(doc, responses[String(status)], `${at}/responses`)?.content ?? {}),
      ),
    ),
  ];
  const all = successStatuses.map((status): StatusResponseModel => {
    const r = deref(doc, responses[String(status)], `${at}/responses`);
    return { status, kind: responseKindOf(r?.content), schema: responseSchema(r?.content) };
  });
  const first = all[0]!;
  const same = all.every((r) => r.kind === first.kind && JSON.stringify(r.schema) === JSON.stringify(first.schema));
  return { response: first.schema, responseKind: first.kind, mediaTypes, ...(same ? {} : { statusResponses: all }) };
}
