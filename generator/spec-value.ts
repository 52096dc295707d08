/**
 * One value read from a spec by its path, checked against a rule and kept with where it was read
 * and the `x-assumed` note that covers it (the callbacks spec's delivery numbers: x-delivery,
 * x-limits, x-answer; their modules in extensions/ say where each lives). A missing or mistyped
 * value is a SpecError naming its path.
 */
import { SpecError, quoted } from './spec-error.js';

/** A value read from the spec: `at` is a readable path (`operations.receiveEvent.x-delivery.…`). */
export interface SpecValue<T> {
  value: T;
  at: string;
  /** The `x-assumed` text the spec gives for this value, if any. */
  assumed?: string;
}

export type Rule = 'number' | 'numbers' | 'strings';

/** The value at `path` under `root`, checked against `rule` (refused naming the spec path), with where it comes from. */
export function readSpecValue<T>(
  source: string,
  root: unknown,
  rootPath: string,
  rootPointer: string,
  path: string,
  rule: Rule,
  assumed?: string,
): SpecValue<T> {
  let v: any = root;
  for (const key of path.split('.')) v = v?.[key];
  const at = `${rootPath}.${path}`;
  const ok =
    rule === 'number'
      ? isNumber(v)
      : Array.isArray(v) &&
        v.length > 0 &&
        v.every(rule === 'numbers' ? isNumber : (s: unknown) => typeof s === 'string');
  if (!ok)
    throw new SpecError(
      `${rootPointer}/${path.split('.').join('/')}`,
      'delivery-rule',
      `${source}: ${at} must be ${rule === 'number' ? 'a number' : rule === 'numbers' ? 'a non-empty list of numbers' : 'a non-empty list of strings'} (the delivery simulator reads it), found ${quoted(v)}`,
      `write ${rule === 'number' ? 'a number' : rule === 'numbers' ? 'a list of numbers' : 'a list of strings'} there, as the callbacks seed gives it`,
      source,
    );
  return { value: (Array.isArray(v) ? [...v] : v) as T, at, ...(assumed ? { assumed } : {}) };
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
