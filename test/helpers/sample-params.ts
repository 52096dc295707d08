/**
 * Params objects produced from the spec (not written by hand for 178 operations): a minimal
 * valid one per operation, and invalid variants that each break exactly one rule.
 *
 * Works from the model's fields (spec schemas, `$ref`s resolved through `model.schemas`), not
 * from the generator's params schema, so the two are independent checks of each other.
 */
import type { ApiModel, FieldModel, JsonSchema, OperationModel } from '../../generator/model.js';

const REF = /^#\/components\/schemas\/(.+)$/;

function resolver(model: ApiModel) {
  const byName = new Map(model.schemas.map((s) => [s.name, s.schema]));
  return (schema: JsonSchema): JsonSchema => {
    let s = schema;
    for (let i = 0; i < 20 && typeof s?.$ref === 'string'; i++) {
      const name = REF.exec(s.$ref)?.[1];
      const target = name === undefined ? undefined : byName.get(name);
      if (!target) throw new Error(`unresolvable ${s.$ref}`);
      s = target;
    }
    return s;
  };
}

function typesOf(s: JsonSchema): string[] {
  return s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
}

/** A minimal value that satisfies `schema`. */
export function sampleValue(model: ApiModel, schema: JsonSchema | boolean, depth = 0): unknown {
  if (schema === true || schema === false || depth > 20) return 'x';
  const s = resolver(model)(schema);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
  if (Array.isArray(s.anyOf)) return sampleValue(model, s.anyOf[0], depth + 1);
  if (Array.isArray(s.oneOf)) return sampleValue(model, s.oneOf[0], depth + 1);
  if (Array.isArray(s.allOf)) return sampleValue(model, s.allOf[0], depth + 1);
  const type = typesOf(s).find((t) => t !== 'null') ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return '2025-01-31T12:00:00Z';
      return 'a'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleValue(model, s.items ?? {}, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sampleValue(model, s.properties?.[name] ?? {}, depth + 1);
      for (let i = Object.keys(out).length; i < (s.minProperties ?? 0); i++) {
        out[`key${i}`] = sampleValue(
          model,
          typeof s.additionalProperties === 'object' ? s.additionalProperties : {},
          depth + 1,
        );
      }
      return out;
    }
    default:
      return 'x';
  }
}

export function fieldsOf(op: OperationModel): FieldModel[] {
  return [...op.pathParams, ...op.queryParams, ...(op.body?.fields ?? [])];
}

/** Path params, required query params and required body fields, each with a minimal value. */
export function validParams(model: ApiModel, op: OperationModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(op)) if (f.required || op.pathParams.includes(f)) out[f.name] = sampleValue(model, f.schema);
  return out;
}

/** JSON types a value of `schema` may have (through refs and anyOf/oneOf). */
function acceptedTypes(model: ApiModel, schema: JsonSchema, depth = 0): Set<string> | 'any' {
  const s = resolver(model)(schema);
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts)) {
    const all = new Set<string>();
    for (const a of alts) {
      const t = acceptedTypes(model, a, depth + 1);
      if (t === 'any') return 'any';
      t.forEach((x) => all.add(x));
    }
    return all;
  }
  if (Array.isArray(s.enum))
    return new Set(s.enum.map((v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
  const types = typesOf(s);
  if (!types.length) return 'any';
  const set = new Set(types);
  if (set.has('integer')) set.add('number');
  return set;
}

const WRONG_VALUES: [string, unknown][] = [
  ['boolean', true],
  ['object', { not: 'expected' }],
  ['string', 'not-the-right-type'],
  ['number', 12.5],
  ['array', ['x']],
];

export interface InvalidVariant {
  /** What was broken, for test names. */
  what: string;
  params: unknown;
  /** The issue the validator must report. */
  pointer: string;
  rules: string[];
}

/**
 * Invalid variants, each breaking one rule of a valid params object: a required field left out,
 * a field given a value of the wrong JSON type, an unknown field on a closed shape, or params
 * that are not an object at all. The first is the primary one.
 */
export function invalidVariants(model: ApiModel, op: OperationModel): InvalidVariant[] {
  const valid = validParams(model, op);
  const out: InvalidVariant[] = [];
  for (const f of fieldsOf(op)) {
    if (!(f.name in valid)) continue;
    const { [f.name]: _left, ...rest } = valid;
    out.push({ what: `without required ${f.name}`, params: rest, pointer: `/${f.name}`, rules: ['required'] });
  }
  for (const f of fieldsOf(op)) {
    const accepted = acceptedTypes(model, f.schema);
    if (accepted === 'any') continue;
    const wrong = WRONG_VALUES.find(([t]) => !accepted.has(t));
    if (!wrong) continue;
    out.push({
      what: `${f.name} of type ${wrong[0]}`,
      params: { ...valid, [f.name]: wrong[1] },
      pointer: `/${f.name}`,
      rules: ['type', 'enum', 'const'],
    });
  }
  if (!op.body?.open) {
    out.push({
      what: 'an unknown field',
      params: { ...valid, not_a_field_of_this_op: 1 },
      pointer: '/not_a_field_of_this_op',
      rules: ['additionalProperties'],
    });
  }
  out.push({ what: 'params that are not an object', params: ['not', 'an', 'object'], pointer: '', rules: ['type'] });
  return out;
}
