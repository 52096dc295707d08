/**
 * The request bodies of one operation, for build-model (through build-wire.ts): each media type's
 * kind (JSON, form, multipart, text, bytes), its params fields, file parts and part encodings, or
 * the whole body under `body` when its fields cannot be spread into the params.
 */
import { assumedOf } from './extensions/x-assumed.js';
import { BODY_PARAM } from '../templates/runtime/contract/operation-spec.js';
import { deref, type OpenApiDocument } from './load-spec.js';
import type { BodyKind, BodyModel, FieldModel, GeneratorWarning, JsonSchema, PartEncoding } from './model.js';
import { SpecError, quoted } from './spec-error.js';
import { bodyFieldsOf } from './transform/body-fields.js';

/** The document's component schemas by name, made once per document (once per JSON body made it quadratic in the spec's size). */
const componentsByDoc = new WeakMap<object, Map<string, JsonSchema>>();
function componentSchemas(doc: OpenApiDocument): Map<string, JsonSchema> {
  let map = componentsByDoc.get(doc);
  if (!map) componentsByDoc.set(doc, (map = new Map(Object.entries<JsonSchema>(doc.components?.schemas ?? {}))));
  return map;
}
export function derefSchema(doc: OpenApiDocument, schema: any, at: string): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) s = deref(doc, s, at);
  return s;
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

/** What every body of one operation is built with. */
interface BodyContext {
  doc: OpenApiDocument;
  id: string;
  where: string;
  requestBody: any;
  required: boolean;
  nonBody: ReadonlySet<string>;
  warnings: GeneratorWarning[];
  deref: (s: unknown) => JsonSchema | undefined;
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
  const cx: BodyContext = { doc, id, where, requestBody, required, nonBody, warnings, deref };
  return entries.map(([contentType, media]): BodyModel => {
    const kind = bodyKindOf(contentType);
    if (kind === 'binary' || kind === 'text') return rawBody(cx, contentType, kind, media);
    if (kind === 'json') return jsonBody(cx, contentType, media);
    return formBody(cx, contentType, kind, media);
  });
}

/** A body that goes whole in the params field `body` (with a warning saying why). */
function wholeBody(cx: BodyContext, contentType: string, kind: BodyKind, media: any, why: string): BodyModel {
  cx.warnings.push({
    pointer: cx.where,
    rule: 'body-whole',
    message: `${cx.id}: the ${contentType} body ${why}: it goes whole in the params field \`${BODY_PARAM}\``,
  });
  return {
    contentType,
    kind,
    whole: true,
    fields: [
      {
        name: BODY_PARAM,
        required: cx.required,
        schema: media?.schema ?? {},
        description: cx.requestBody.description ?? `The ${contentType} body.`,
      },
    ],
    open: false,
  };
}

/** Bytes, or a text body: the string the caller gives (an XML body's schema describes the document, not the string). */
function rawBody(cx: BodyContext, contentType: string, kind: 'binary' | 'text', media: any): BodyModel {
  const schema = cx.deref(media?.schema);
  const fieldSchema = kind === 'text' ? (schema?.type === 'string' ? media.schema : { type: 'string' }) : {};
  return {
    contentType,
    kind,
    fields: [
      {
        name: BODY_PARAM,
        required: cx.required,
        schema: fieldSchema,
        description: cx.requestBody.description ?? `The ${kind === 'text' ? 'text' : 'bytes'} sent as ${contentType}.`,
      },
    ],
    open: false,
  };
}

/** A JSON body: its fields, or whole when it is not an object or a field clashes with another param. */
function jsonBody(cx: BodyContext, contentType: string, media: any): BodyModel {
  let json: BodyModel;
  // JSON bodies may also be a top-level oneOf/anyOf (a union of flat params objects) or an allOf
  try {
    json = {
      ...bodyFieldsOf(media?.schema, cx.deref, componentSchemas(cx.doc), cx.where, cx.id, contentType),
      contentType,
      kind: 'json',
    };
  } catch (error) {
    if (!(error instanceof SpecError) || error.rule !== 'body-not-object') throw error;
    return wholeBody(cx, contentType, 'json', media, 'is not an object (nor a union of objects)');
  }
  const clash = json.fields.find((f) => cx.nonBody.has(f.name));
  return clash
    ? wholeBody(
        cx,
        contentType,
        'json',
        media,
        `has a field ${quoted(clash.name)} that is also a path, query, header or cookie parameter`,
      )
    : json;
}

/** A form or multipart body: an object's properties (file parts marked), with multipart part encodings. */
function formBody(cx: BodyContext, contentType: string, kind: BodyKind, media: any): BodyModel {
  const { deref, where, id } = cx;
  const schema = deref(media?.schema);
  if (schema?.type !== 'object') {
    // a union or allOf of objects gives its fields (every branch's, each required when all require it)
    const union = (() => {
      try {
        return bodyFieldsOf(media?.schema, deref, componentSchemas(cx.doc), where, id, contentType);
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
    const r = derefSchema(cx.doc, s, where);
    const file = fileOf(kind, s, deref).file;
    return {
      name,
      required: req.has(name),
      schema: s,
      description: s.description ?? r?.description,
      assumed: assumedOf(s),
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
