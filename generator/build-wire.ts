/**
 * The wire side of one operation, for build-model: parameters by location and style, request
 * bodies by media type, success responses by kind. Refusals name the construct and what is
 * supported instead, so a maintainer knows what to change.
 */
import { BODY_PARAM } from '../templates/runtime/operation.js';
import { deref, type OpenApiDocument } from './load-spec.js';
import type { BodyKind, BodyModel, FieldModel, JsonSchema, PartEncoding, QueryStyle, ResponseKind, StatusResponseModel } from './model.js';
import { bodyFieldsOf } from './transform/body-fields.js';
import { SpecError, quoted } from './spec-error.js';

const CLIENT_FILLED = new Set(['org_name', 'app_name']);

/** Headers the runtime writes itself: a header parameter may not take them over. */
const RUNTIME_HEADERS = ['authorization', 'content-type', 'accept', 'content-length', 'host', 'transfer-encoding', 'cookie'];

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
  const refuse = (why: string, fix: string) => new SpecError(at, 'parameter-style', `${id}: query parameter ${quoted(p.name)}: ${why}`, fix);
  switch (style) {
    case 'form':
      if (!explode) return { style: 'formNoExplode', explode: false };
      return type === 'object' ? { style: 'form', explode: true } : {};
    case 'spaceDelimited':
    case 'pipeDelimited':
      if (explode) throw refuse(`style ${style} with explode: true is form style`, 'write style: form, or explode: false');
      return { style: style as QueryStyle, explode: false };
    case 'deepObject':
      if (!explode) throw refuse('style deepObject needs explode: true (OpenAPI defines no other form)', 'remove explode: false');
      if (type !== undefined && type !== 'object') throw refuse(`style deepObject is for objects (schema type is ${quoted(type)})`, 'give the parameter an object schema, or use style: form');
      return { style: 'deepObject', explode: true };
    default:
      throw refuse(`style ${quoted(style)} is not supported in the query`, 'use one of form, spaceDelimited, pipeDelimited, deepObject');
  }
}

export function wireParams(doc: OpenApiDocument, id: string, at: string, params: any[], dedupeHeader: string | undefined): WireParams {
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
    if (p.content) throw new SpecError(at, 'parameter-content', `${id}: parameter ${quoted(p.name)} uses \`content\``, 'describe it with `schema` (and style/explode) instead');
    if (p.in === 'path') {
      if (p.style !== undefined && p.style !== 'simple') {
        throw new SpecError(at, 'parameter-style', `${id}: path parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`, 'remove the style (simple, the default, is the one supported)');
      }
      if (resolved.type === 'array' || resolved.type === 'object') {
        throw new SpecError(at, 'parameter-style', `${id}: path parameter ${quoted(p.name)}: ${resolved.type} path parameters are not supported`, 'give it a string, number or integer schema');
      }
      if (!CLIENT_FILLED.has(p.name)) out.pathParams.push(field);
    } else if (p.in === 'query') {
      out.queryParams.push({ ...field, ...queryStyle(id, at, p, resolved), ...(p.allowEmptyValue === true ? { allowEmptyValue: true } : {}) });
    } else if (p.in === 'header') {
      const lower = String(p.name).toLowerCase();
      if (RUNTIME_HEADERS.includes(lower) || lower === dedupeHeader) {
        throw new SpecError(at, 'header-parameter-reserved', `${id}: header parameter ${quoted(p.name)} would overwrite a header the client sends itself (${[...RUNTIME_HEADERS, ...(dedupeHeader ? [dedupeHeader] : [])].join(', ')})`, 'remove it from the spec');
      }
      if (p.style !== undefined && p.style !== 'simple') throw new SpecError(at, 'parameter-style', `${id}: header parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`, 'remove the style (simple, the default, is the one supported)');
      out.headerParams.push({ ...field, ...(p.explode === true ? { explode: true } : {}) });
    } else if (p.in === 'cookie') {
      if (p.style !== undefined && p.style !== 'form') throw new SpecError(at, 'parameter-style', `${id}: cookie parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`, 'remove the style (form, the default, is the one supported)');
      out.cookieParams.push(field);
    } else throw new SpecError(at, 'parameter-location', `${id}: parameter ${quoted(p.name)} in ${quoted(p.in)} is not supported`, 'write in: path, query, header or cookie');
  }
  const headerNames = out.headerParams.map((h) => h.name.toLowerCase());
  const twice = headerNames.find((n, i) => headerNames.indexOf(n) !== i);
  if (twice) throw new SpecError(at, 'header-parameter-twice', `${id}: header parameter ${quoted(twice)} is declared twice (header names are case-insensitive)`, 'keep one of them');
  return out;
}

export const SUPPORTED_BODY_TYPES = 'application/json (and +json), application/x-www-form-urlencoded, multipart/form-data, text/plain, and binary types (application/octet-stream, image/*, audio/*, video/*, application/pdf, application/zip)';

/** The body kind of a media type, or undefined when the client cannot send it. */
export function bodyKindOf(mediaType: string): BodyKind | undefined {
  const t = mediaType.split(';')[0]!.trim().toLowerCase();
  if (t === 'application/json' || /^application\/[\w.+-]+\+json$/.test(t)) return 'json';
  if (t === 'application/x-www-form-urlencoded') return 'form';
  if (t === 'multipart/form-data') return 'multipart';
  if (t === 'text/plain') return 'text';
  if (t === 'application/octet-stream' || /^(image|audio|video)\/[\w.+-]+$/.test(t) || t === 'application/pdf' || t === 'application/zip') return 'binary';
  return undefined;
}

function isFileSchema(s: JsonSchema | undefined): boolean {
  return !!s && (s.format === 'binary' || (typeof s.contentMediaType === 'string' && s.contentEncoding === undefined));
}

function partEncoding(raw: any): PartEncoding | undefined {
  if (!raw) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, h] of Object.entries<any>(raw.headers ?? {})) {
    const value = h?.schema?.const ?? h?.schema?.default ?? h?.example;
    if (value !== undefined) headers[name] = String(value);
  }
  const out: PartEncoding = { ...(raw.contentType ? { contentType: String(raw.contentType) } : {}), ...(Object.keys(headers).length ? { headers } : {}) };
  return Object.keys(out).length ? out : undefined;
}

/** Every media type of a request body, the first listed first (the default). */
export function wireBodies(doc: OpenApiDocument, id: string, at: string, requestBody: any): BodyModel[] {
  if (!requestBody) return [];
  const content: Record<string, any> = requestBody.content ?? {};
  const where = `${at}/requestBody`;
  if (!Object.keys(content).length) throw new SpecError(where, 'body-no-content', `${id}: the request body lists no media type`, 'add a media type under content, e.g. application/json with its schema');
  const required = requestBody.required === true;
  return Object.entries(content).map(([contentType, media]) => {
    const kind = bodyKindOf(contentType);
    if (!kind) throw new SpecError(where, 'body-content-type', `${id}: request body media type ${quoted(contentType)} is not supported`, `use one of ${SUPPORTED_BODY_TYPES}`);
    const schema = derefSchema(doc, media?.schema, where);
    if (kind === 'binary' || kind === 'text') {
      const fieldSchema = kind === 'text' ? (media?.schema ?? { type: 'string' }) : {};
      return { contentType, kind, fields: [{ name: BODY_PARAM, required, schema: fieldSchema, description: requestBody.description ?? `The ${kind === 'text' ? 'text' : 'bytes'} sent as ${contentType}.` }], open: false };
    }
    if (kind === 'json') {
      // JSON bodies may also be a top-level oneOf/anyOf (a union of flat params objects) or an allOf
      return { ...bodyFieldsOf(media?.schema, (s) => derefSchema(doc, s, where), componentSchemas(doc), where, id, contentType), contentType, kind };
    }
    if (!schema || schema.type !== 'object') {
      throw new SpecError(where, 'body-not-object', `${id}: a ${contentType} request body must have an object schema (its properties become params fields)`, 'give it an object schema, or send other shapes as application/octet-stream or text/plain');
    }
    const req = new Set<string>(schema.required ?? []);
    const fields = Object.entries<JsonSchema>(schema.properties ?? {}).map(([name, s]): FieldModel => {
      const r = derefSchema(doc, s, where);
      const file = kind === 'multipart' ? (isFileSchema(r) ? 'one' : r?.type === 'array' && isFileSchema(derefSchema(doc, r.items, where)) ? 'many' : undefined) : undefined;
      return {
        name, required: req.has(name), schema: s, description: s.description ?? r?.description, assumed: s['x-assumed'],
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
    return { contentType, kind, fields, open: schema.additionalProperties !== false, ...(Object.keys(encoding).length ? { encoding } : {}) };
  });
}

function responseKindOf(content: Record<string, any> | undefined): ResponseKind {
  const types = Object.keys(content ?? {});
  if (!types.length) return 'empty';
  const kinds = types.map((t) => (bodyKindOf(t) === 'json' ? 'json' : bodyKindOf(t) === 'text' || t.startsWith('text/') ? 'text' : 'binary'));
  return kinds.includes('json') ? 'json' : kinds[0]!;
}

function responseSchema(content: Record<string, any> | undefined): JsonSchema {
  const json = Object.keys(content ?? {}).find((t) => bodyKindOf(t) === 'json');
  return json ? (content![json].schema ?? {}) : {};
}

export interface WireResponses {
  response: JsonSchema;
  responseKind: ResponseKind;
  statusResponses?: StatusResponseModel[];
}

/** Success responses: the first one's kind and schema; all of them when they differ in shape. */
export function wireResponses(doc: OpenApiDocument, at: string, responses: any, successStatuses: number[]): WireResponses {
  const all = successStatuses.map((status): StatusResponseModel => {
    const r = deref(doc, responses[String(status)], `${at}/responses`);
    return { status, kind: responseKindOf(r?.content), schema: responseSchema(r?.content) };
  });
  const first = all[0]!;
  const same = all.every((r) => r.kind === first.kind && JSON.stringify(r.schema) === JSON.stringify(first.schema));
  return { response: first.schema, responseKind: first.kind, ...(same ? {} : { statusResponses: all }) };
}
