/**
 * The names an operation declares, by where they go (internal, unstable). Derived once per
 * operation table entry and kept, so the request path does not rebuild the same sets per call.
 */
import type { OperationSpec } from '../operation.js';

export interface OperationNames {
  /** Params that go in the path, query, headers or cookie: never into the body. */
  nonBody: ReadonlySet<string>;
  /** Every declared name, body fields first. */
  declared: readonly string[];
  known: ReadonlySet<string>;
}

const byOperation = new WeakMap<OperationSpec, OperationNames>();

export function operationNames(op: OperationSpec): OperationNames {
  let names = byOperation.get(op);
  if (!names) {
    const nonBody = [...op.pathParams, ...op.queryParams, ...(op.headerParams ?? []), ...(op.cookieParams ?? [])];
    const declared = [...op.bodyFields, ...nonBody];
    names = { nonBody: new Set(nonBody), declared, known: new Set(declared) };
    byOperation.set(op, names);
  }
  return names;
}
