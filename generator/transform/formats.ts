/**
 * The formats of the OpenAPI Format Registry (and JSON Schema 2020-12) the generator knows.
 *
 * - CHECKED: the request validators and the response drift check test them, with the small
 *   checks in templates/runtime/contract/ajv-formats.ts (`ajvFormats`; zero runtime
 *   dependencies). `number` formats apply to numbers, the others to strings (Ajv's rule).
 * - ANNOTATION: known, never checked (a password is any string; float/double any number; int64 is
 *   an integer of any size: the lossless JSON helpers keep the big ones, see lossless-json.ts).
 * Any other format is unknown: a generator warning (normalize-schema.ts), dropped from validators.
 */
export const CHECKED_FORMATS: Readonly<Record<string, 'string' | 'number'>> = {
  'date-time': 'string',
  date: 'string',
  time: 'string',
  duration: 'string',
  email: 'string',
  'idn-email': 'string',
  hostname: 'string',
  'idn-hostname': 'string',
  ipv4: 'string',
  ipv6: 'string',
  uri: 'string',
  'uri-reference': 'string',
  iri: 'string',
  'iri-reference': 'string',
  uuid: 'string',
  'json-pointer': 'string',
  'relative-json-pointer': 'string',
  regex: 'string',
  byte: 'string',
  int32: 'number',
};

export const ANNOTATION_FORMATS: ReadonlySet<string> = new Set([
  'int8',
  'int16',
  'int64',
  'uint8',
  'float',
  'double',
  'decimal',
  'decimal128',
  'password',
  'binary',
  'base64url',
  'char',
  'commonmark',
  'html',
  'http-date',
  'media-range',
  'uri-template',
  'sf-binary',
  'sf-boolean',
  'sf-decimal',
  'sf-integer',
  'sf-string',
  'sf-token',
]);

export function isKnownFormat(format: string): boolean {
  return format in CHECKED_FORMATS || ANNOTATION_FORMATS.has(format);
}

/** True when the schema (not its subschemas) is a 64-bit integer: JSON numbers beyond 2^53 lose digits in JS. */
export function isInt64(schema: Record<string, any> | undefined): boolean {
  if (schema?.format !== 'int64') return false;
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('integer') || types.includes('number');
}
