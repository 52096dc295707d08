/**
 * CPU profiles of the per-call clients (per-call.ts, profile-per-call.ts): self time by where the
 * code lives, and the side by side of ours against bare node:http that explains a per-call miss
 * (issue 33): the same categories for both runs, and the Node functions where ours spends more.
 * The figures come from the `.cpuprofile` files of that run; nothing here is a measured constant.
 */
import { profileSelfTime } from './lib.js';

/** The sampling interval of the per-call profiles (µs): Node's default 1 ms gives too few samples per function. */
export const PROFILE_INTERVAL_US = 100;

/** The categories a per-call profile is split into (idle excluded: waiting for the server). */
export const PROFILE_CATEGORIES = ['node', 'package', 'gc', 'program', 'other'] as const;
export type ProfileCategory = (typeof PROFILE_CATEGORIES)[number];

export const CATEGORY_LABEL: Readonly<Record<ProfileCategory, string>> = {
  node: 'node internals (http, sockets, streams, timers, promises)',
  package: 'package code (im-server-sdk)',
  gc: 'garbage collection',
  program: 'V8/native (program)',
  other: 'bench driver and loader',
};

/** One function's self time in one profile. */
export interface FunctionTime {
  /** `name — file` (package files relative to dist/esm/, Node's as `node:…`, natives as `(native)`). */
  name: string;
  category: ProfileCategory | 'idle';
  ms: number;
}

/** Where a profile node's code lives; `pkg` is the package's dist/esm/ folder as it appears in URLs. */
export function categoryOf(url: string, fn: string, pkg: string): ProfileCategory | 'idle' {
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(program)') return 'program';
  if (url.includes(pkg)) return 'package';
  // undici (fetch) is Node's own too: for a node:http client it is never on the path
  if (url.startsWith('node:') || url === '' || url.includes('undici')) return fn === '(root)' ? 'other' : 'node';
  return 'other';
}

/** Self time per function of one `.cpuprofile`. */
export function functionTimes(profilePath: string, pkg: string): FunctionTime[] {
  const meta = new Map<string, ProfileCategory | 'idle'>();
  const times = profileSelfTime(profilePath, (url, fn) => {
    const where = url.includes(pkg) ? url.slice(url.indexOf(pkg) + pkg.length) : url === '' ? '(native)' : url;
    const name = `${fn || '(anonymous)'} — ${where.replace(/^.*\/node_modules\//, '')}`;
    meta.set(name, categoryOf(url, fn, pkg));
    return name;
  });
  return times.map((t) => ({ name: t.name, category: meta.get(t.name)!, ms: t.ms }));
}

/** µs per call of each category (idle excluded). */
export function categoriesPerCall(fns: readonly FunctionTime[], calls: number): Record<ProfileCategory, number> {
  const out = Object.fromEntries(PROFILE_CATEGORIES.map((c) => [c, 0])) as Record<ProfileCategory, number>;
  for (const f of fns) if (f.category !== 'idle') out[f.category] += (f.ms * 1000) / calls;
  return out;
}

/** Ours against bare node:http at one concurrency, from one profiled run of each. */
export interface VersusBare {
  /** Calls each profiled process made (warm-up + measured): the divisor of every µs/call here. */
  calls: number;
  ours: Record<ProfileCategory, number>;
  bare: Record<ProfileCategory, number>;
  /** Node-internal functions (and natives) where ours spends more self time than bare, most first (µs/call). */
  nodeExtra: { name: string; oursUs: number; bareUs: number }[];
  /** Node-internal functions where bare spends more than ours (ours saves there), most first. */
  nodeLess: { name: string; oursUs: number; bareUs: number }[];
}

/** The side by side of two profiles of the same calls: categories, and Node functions by difference. */
export function versusBare(
  ours: readonly FunctionTime[],
  bare: readonly FunctionTime[],
  calls: number,
  top = 10,
): VersusBare {
  const perCall = (fns: readonly FunctionTime[]) =>
    new Map(fns.filter((f) => f.category === 'node').map((f) => [f.name, (f.ms * 1000) / calls]));
  const o = perCall(ours);
  const b = perCall(bare);
  const diffs = [...new Set([...o.keys(), ...b.keys()])].map((name) => ({
    name,
    oursUs: o.get(name) ?? 0,
    bareUs: b.get(name) ?? 0,
  }));
  const extra = (d: (typeof diffs)[number]) => d.oursUs - d.bareUs;
  return {
    calls,
    ours: categoriesPerCall(ours, calls),
    bare: categoriesPerCall(bare, calls),
    nodeExtra: diffs
      .filter((d) => extra(d) > 0)
      .sort((x, y) => extra(y) - extra(x))
      .slice(0, top),
    nodeLess: diffs
      .filter((d) => extra(d) < 0)
      .sort((x, y) => extra(x) - extra(y))
      .slice(0, top),
  };
}

/**
 * What a package function's cost pays for (the guarantee or seed rule), by its name in the built
 * package; undefined for a name not listed (the report shows "–").
 */
export function paysFor(functionName: string): string | undefined {
  const name = functionName.split(' — ')[0]!;
  for (const [test, why] of PAYS_FOR) if (test.test(name)) return why;
  return undefined;
}

const PAYS_FOR: readonly [RegExp, string][] = [
  [/^validate\d*$|^validateParams$/, 'request validation: bad input refused before sending (standards)'],
  [/^parseSuccessBody$|^jsonParseLossless$/, 'the JSON answer, int64 beyond 2^53 kept exact (lossless JSON)'],
  [
    /^sendWithRetries$|^startAttempt$|^settleAttempt$|^successOf$/,
    'the attempt loop: retries by class, per-attempt timeout, deadline, 401 re-exchange (REST seed §4)',
  ],
  [/^beforeAttempt$|^passGate$|^readGate$/, 'the 429 pause and the fleet quota gate (REST seed §8)'],
  [/^getToken$|^readyToken$|^#usable$|^#due$/, 'the App Token cache and refresh (REST seed §4.1)'],
  [
    /^sendCall$|^afterChecks$|^#call$|^checkRequestOptions$|^fillDedupeKey$/,
    'the call: options checked by name, the dedupe key of a D operation, its deadline and signal (REST seed §4)',
  ],
  [/^fillPath$|^buildRequest$|^buildBody$|^asParams$/, 'request building: path segments escaped (path safety)'],
  [
    /^forEach$|^redactHeaders$|^responseInfo$/,
    'status, headers and request id of the answer, secret headers masked (standards: secrets)',
  ],
  [
    /^(start|#settle|#onResponse|#onData|#onEnd|#onClose|<instance_members_initializer>)$/,
    'the node transport: per-attempt timer, abort, body size bound, decoding',
  ],
  [/^ApiPromise$|^then$|^#parsed$/, 'the ApiPromise of every call (`.withResponse()`)'],
  [/^#revokedError$|^revokedErrorOf$/, 'revoked credentials end every later call (app_deleted / tenant_closed)'],
];
