/**
 * The entries of the generated `operations.ts` are written without the fields most operations
 * share (internal, unstable): an app that imports ImClient carries all 178 entries, and these
 * defaults written out in each were ~8 KB of its minified start (issue 18). `operation()` puts
 * them back, so every entry is a whole `OperationSpec` at run time, as before.
 */
import type { OperationSpec } from './operation-spec.js';

/** The fields `operation()` fills when an entry leaves them out. */
type Defaulted = 'auth' | 'pathParams' | 'queryParams' | 'body' | 'bodyFields' | 'successStatuses';

/** An entry of operations.ts: an OperationSpec whose common fields may be left out. */
export type OperationEntry = Omit<OperationSpec, Defaulted> & Partial<Pick<OperationSpec, Defaulted>>;

/**
 * The default of each left-out field: an authenticated JSON call without params or body that
 * answers 200 (`pathParams`: those its path names, `pathParamsOf`).
 */
export const OPERATION_DEFAULTS = {
  auth: true,
  pathParams: [],
  queryParams: [],
  body: 'none',
  bodyFields: [],
  successStatuses: [200],
} as const satisfies Pick<OperationSpec, Defaulted>;

/**
 * The path parameters an entry leaves out: the `{name}` segments of its path, in path order (what
 * the generator writes; issue 33: `pathParams` written out was 3.9 KB of every ImClient app).
 */
export function pathParamsOf(path: string): string[] {
  return Array.from(path.matchAll(/\{([^{}]+)\}/g), (m) => m[1]!);
}

/** A whole OperationSpec from an entry (new arrays for the defaults: no entry shares one). */
export function operation(entry: OperationEntry): OperationSpec {
  const whole: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(OPERATION_DEFAULTS))
    whole[name] = Array.isArray(value) ? [...value] : value;
  whole.pathParams = pathParamsOf(entry.path);
  return Object.assign(whole, entry) as OperationSpec;
}
