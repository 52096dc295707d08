/**
 * A request body schema → the body fields of the flat params object (`bodyFieldsOf`): an object
 * schema gives its properties; a top-level `oneOf`/`anyOf` of object schemas (with or without a
 * discriminator) gives one variant per branch, and `fields` lists the fields of every branch.
 * `allOf` of object schemas is merged first. Anything else is refused: params are flat objects.
 */
import { assumedOf } from '../extensions/x-assumed.js';
import type { BodyModel, FieldModel, JsonSchema } from '../model.js';
import { SpecError } from '../spec-error.js';
import { discriminatedOf } from './discriminator.js';

export type Deref = (schema: unknown) => JsonSchema | undefined;

/** An object schema's own shape with `allOf` parts folded in (fields, required, closedness). */
function objectShape(
  schema: JsonSchema,
  deref: Deref,
): { properties: Record<string, JsonSchema>; required: Set<string>; closed: boolean; object: boolean } {
  const shape = {
    properties: { ...(schema.properties ?? {}) },
    required: new Set<string>(schema.required ?? []),
    closed: schema.additionalProperties === false,
    object: schema.type === 'object' || !!schema.properties,
  };
  for (const part of schema.allOf ?? []) {
    const inner = objectShape(deref(part) ?? {}, deref);
    Object.assign(shape.properties, inner.properties);
    inner.required.forEach((r) => shape.required.add(r));
    shape.closed ||= inner.closed;
    shape.object ||= inner.object;
  }
  return shape;
}

function fieldsOf(schema: JsonSchema, deref: Deref): { fields: FieldModel[]; open: boolean } | undefined {
  const shape = objectShape(schema, deref);
  if (!shape.object) return undefined;
  const fields = Object.entries(shape.properties).map(
    ([name, s]): FieldModel => ({
      name,
      required: shape.required.has(name),
      schema: s,
      description: s.description ?? deref(s)?.description,
      assumed: assumedOf(s),
      ...(deref(s)?.deprecated === true ? { deprecated: true } : {}),
    }),
  );
  return { fields, open: !shape.closed };
}

/** The fields part of a JSON BodyModel (the caller adds the media type and kind). */
export type BodyFields = Pick<BodyModel, 'fields' | 'open' | 'union' | 'constraint'>;

const CONSTRAINT_KEYS = new Set(['required', 'description', 'title']);
/** A branch that only lists required fields (and says what it means). */
function isConstraintOnly(branch: JsonSchema): boolean {
  return (
    !!branch &&
    typeof branch === 'object' &&
    Array.isArray(branch.required) &&
    Object.keys(branch).every((k) => CONSTRAINT_KEYS.has(k))
  );
}

export function bodyFieldsOf(
  raw: JsonSchema | undefined,
  deref: Deref,
  components: ReadonlyMap<string, JsonSchema>,
  at: string,
  id: string,
  mediaType = 'application/json',
): BodyFields {
  const schema = deref(raw);
  const refuse = () =>
    new SpecError(
      at,
      'body-not-object',
      `${id}: a ${mediaType} request body must have an object schema (or a oneOf/anyOf of object schemas: their properties become params fields)`,
      'give it an object schema, or send other shapes as application/octet-stream or text/plain',
    );
  if (!schema) throw refuse();
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (!keyword) {
    const body = fieldsOf(schema, deref);
    if (!body) throw refuse();
    return body;
  }
  // branches that only say which fields are required are constraints on one object, not shapes
  const branches = schema[keyword] as JsonSchema[];
  if (branches.every(isConstraintOnly)) {
    const { oneOf: _o, anyOf: _a, ...holder } = schema;
    const body = fieldsOf({ type: 'object', ...holder }, deref);
    if (!body) throw refuse();
    return { ...body, constraint: { keyword, branches } };
  }
  const disc = discriminatedOf(schema, components, `${at}/schema`);
  // properties beside the oneOf/anyOf hold in every branch
  const { oneOf: _o, anyOf: _a, discriminator: _d, ...holder } = schema;
  const variants = (schema[keyword] as JsonSchema[]).map((branch, i) => {
    const v = objectShape(deref(branch) ?? {}, deref).object
      ? fieldsOf({ ...holder, type: 'object', allOf: [...(holder.allOf ?? []), branch] }, deref)
      : undefined;
    if (!v)
      throw new SpecError(
        `${at}/schema/${keyword}/${i}`,
        'body-not-object',
        `${id}: every branch of a ${keyword} request body must be an object schema`,
        'make the branch an object schema (type: object with properties)',
      );
    return { ...v, ...(disc ? { values: disc.branches[i]!.values } : {}) };
  });
  const fields: FieldModel[] = [];
  for (const v of variants)
    for (const f of v.fields)
      if (!fields.some((g) => g.name === f.name))
        fields.push({ ...f, required: variants.every((w) => w.fields.some((g) => g.name === f.name && g.required)) });
  return {
    fields,
    open: variants.some((v) => v.open),
    union: { keyword, ...(disc ? { discriminator: { propertyName: disc.propertyName } } : {}), variants },
  };
}
