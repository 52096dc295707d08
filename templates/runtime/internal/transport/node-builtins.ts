/**
 * Node's builtins for the node transport (internal, unstable), without a static import of a node:
 * module: they come from `process.getBuiltinModule` (Node ≥ 20.16), so bundles for workers and
 * browsers never pull node:http in, and runtimes without it get the fetch transport instead.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type * as Zlib from 'node:zlib';
import type * as Stream from 'node:stream';

export type Builtins = {
  http: typeof Http;
  https: typeof Https;
  tls: typeof Tls;
  zlib: typeof Zlib;
  stream: typeof Stream;
};

interface NodeProcess {
  getBuiltinModule?: (id: string) => unknown;
  release?: { name?: string };
  versions?: { node?: string };
}

/**
 * True on Node itself with `process.getBuiltinModule` (Node ≥ 20.16). False on Bun and Deno
 * (they mimic `process` but have their own fetch), edge runtimes and workers, and browsers.
 */
export function nodeTransportAvailable(): boolean {
  const g = globalThis as {
    process?: NodeProcess;
    Bun?: unknown;
    Deno?: unknown;
    EdgeRuntime?: unknown;
    navigator?: { userAgent?: string };
  };
  const p = g.process;
  if (
    !p ||
    typeof p.getBuiltinModule !== 'function' ||
    p.release?.name !== 'node' ||
    typeof p.versions?.node !== 'string'
  )
    return false;
  if (g.Bun !== undefined || g.Deno !== undefined || g.EdgeRuntime !== undefined) return false;
  return g.navigator?.userAgent !== 'Cloudflare-Workers';
}

/** The builtins, each loaded on first use: an http client never loads tls, and zlib waits for a compressed answer (cold start). */
export function builtins(): Builtins {
  const get = (globalThis as { process?: NodeProcess }).process!.getBuiltinModule!;
  const loaded: Partial<Builtins> = {};
  return {
    get http() {
      return (loaded.http ??= get('node:http') as typeof Http);
    },
    get https() {
      return (loaded.https ??= get('node:https') as typeof Https);
    },
    get tls() {
      return (loaded.tls ??= get('node:tls') as typeof Tls);
    },
    get zlib() {
      return (loaded.zlib ??= get('node:zlib') as typeof Zlib);
    },
    get stream() {
      return (loaded.stream ??= get('node:stream') as typeof Stream);
    },
  };
}
