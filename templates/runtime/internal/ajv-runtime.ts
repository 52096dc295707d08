/**
 * The few run-time helpers that Ajv standalone code calls (internal, unstable).
 *
 * Ajv's standalone output `require()`s these from the `ajv` package (`ajv/dist/runtime/*`) and
 * from `ajv-formats`; the generator (generator/emit/emit-validators.ts) rewrites those calls to
 * import the functions below instead, so the package has no runtime dependency and the
 * validators are plain ES modules (no `require()`), split into lazy chunks by the build. The
 * generator refuses to emit a validator that needs a helper missing here. The format checks live
 * in ajv-formats.ts: only validators of schemas with a checked `format` import them, so the chunk
 * every validator shares stays small (issue 18: one-operation app size).
 */

/**
 * Length of a string in Unicode code points (a surrogate pair counts once), as JSON Schema's
 * minLength/maxLength count. Same algorithm as `ajv/dist/runtime/ucs2length` (punycode.ucs2.decode).
 */
export function ajvUcs2length(str: string): number {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // high surrogate followed by a low surrogate: one code point
      if ((str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}

/**
 * Deep equality of JSON values (what `enum`/`const` with object or array values need), the
 * contract of `ajv/dist/runtime/equal` (fast-deep-equal) restricted to JSON data.
 */
export function ajvDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) return false;
      for (let i = 0; i < a.length; i++) if (!ajvDeepEqual(a[i], bb[i])) return false;
      return true;
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.hasOwn(b, k)) return false;
      if (!ajvDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    }
    return true;
  }
  // NaN equals NaN (as fast-deep-equal says)
  return Number.isNaN(a) && Number.isNaN(b);
}

/** The fields of an Ajv error object that ajvNestErrors rewrites (the rest is passed through). */
interface AjvErrorObject {
  schemaPath: string;
  [field: string]: unknown;
}

/**
 * Appends the errors of a shared component's validator (src/validators/shared/) to the caller's,
 * each `schemaPath` nested under the keyword that called it (`#/properties/a/x-im-shared` +
 * `/anyOf/0/type`): the issue mapping folds `anyOf`s by schemaPath prefix, and without the prefix
 * a shared module's `#/anyOf` would be mistaken for the operation's own. The instance paths are
 * already complete (the caller passes its instancePath in).
 */
export function ajvNestErrors(
  into: AjvErrorObject[] | null,
  from: readonly AjvErrorObject[],
  schemaPath: string,
): AjvErrorObject[] {
  const nested = from.map((e) => ({ ...e, schemaPath: schemaPath + e.schemaPath.slice(1) }));
  return into === null ? nested : into.concat(nested);
}
