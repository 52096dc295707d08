/**
 * The wire side of one operation, for build-model: parameters by location and style, request
 * bodies by media type (wire-bodies.ts), success responses by kind. Refusals name the construct and what is
 * supported instead, so a maintainer knows what to change.
 */
import { assumedOf } from './extensions/x-assumed.js';
import { deref, type OpenApiDocument } from './load-spec.js';
import type {
  FieldModel,
  GeneratorWarning,
  JsonSchema,
  QueryStyle,
  ResponseKind,
  StatusResponseModel,
} from './model.js';
import { SpecError, quoted } from './spec-error.js';
import { bodyKindOf, derefSchema } from './wire-bodies.js';

export { bodyKindOf, wireBodies } from './wire-bodies.js';

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

export interface WireParams {
  pathParams: FieldModel[];
  queryParams: FieldModel[];
  headerParams: FieldModel[];
  cookieParams: FieldModel[];
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

/** One parameter's field: its schema (a string for a `content` parameter, with a warning), doc and default. */
function paramField(id: string, at: string, p: any, resolved: JsonSchema, warnings: GeneratorWarning[]): FieldModel {
  const field: FieldModel = {
    name: p.name,
    required: !!p.required,
    schema: p.schema ?? {},
    description: p.description,
    assumed: assumedOf(p),
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
  return field;
}

/** Refuses a style other than the one a path, header or cookie parameter supports. */
function checkOnlyStyle(id: string, at: string, p: any, where: string, style: 'simple' | 'form'): void {
  if (p.style !== undefined && p.style !== style)
    throw new SpecError(
      at,
      'parameter-style',
      `${id}: ${where} parameter ${quoted(p.name)}: style ${quoted(p.style)} is not supported`,
      `remove the style (${style}, the default, is the one supported)`,
    );
}

/** Adds one parameter's field to its location's list, after the checks of that location. */
function placeParam(
  out: WireParams,
  id: string,
  at: string,
  p: any,
  field: FieldModel,
  resolved: JsonSchema,
  dedupeHeader: string | undefined,
): void {
  if (p.in === 'path') {
    checkOnlyStyle(id, at, p, 'path', 'simple');
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
    checkOnlyStyle(id, at, p, 'header', 'simple');
    out.headerParams.push({ ...field, ...(p.explode === true ? { explode: true } : {}) });
  } else if (p.in === 'cookie') {
    checkOnlyStyle(id, at, p, 'cookie', 'form');
    out.cookieParams.push(field);
  } else
    throw new SpecError(
      at,
      'parameter-location',
      `${id}: parameter ${quoted(p.name)} in ${quoted(p.in)} is not supported`,
      'write in: path, query, header or cookie',
    );
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
    const resolved = derefSchema(doc, p.schema ?? {}, at) ?? {};
    placeParam(out, id, at, p, paramField(id, at, p, resolved, warnings), resolved, dedupeHeader);
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
