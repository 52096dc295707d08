/**
 * Shared pieces of the benchmark harness: statistics, timed child processes (wall and CPU time),
 * the machine description, the loopback bench server, temp folders.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const BIN = {
  tsc: join(ROOT, 'node_modules/typescript/bin/tsc'),
  openapiTypescript: join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
  heyApi: join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'),
  tsx: join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
};
/** `node --import <tsx>`: how the harness runs its TypeScript children. */
export const TSX_IMPORT = ['--import', 'tsx'];

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function spread(values: number[]): { min: number; max: number } {
  return { min: Math.min(...values), max: Math.max(...values) };
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function kb(bytes: number): string {
  return `${round(bytes / 1024, 1)} KB`;
}

export interface TimedRun {
  wallMs: number;
  /** User + system CPU of the child and its children (GNU time), when available. */
  cpuMs: number | undefined;
  maxRssKb: number | undefined;
  code: number | null;
  stdout: string;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';
export const HAVE_GNU_TIME = existsSync(GNU_TIME);

/** Runs a command to its end; wall time measured here, CPU and max RSS by GNU time when present. */
export async function timedRun(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<TimedRun> {
  const timeFile = HAVE_GNU_TIME
    ? join(tmpdir(), `bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`)
    : '';
  const [cmd, argv] = HAVE_GNU_TIME
    ? [GNU_TIME, ['-q', '-f', '%U %S %M', '-o', timeFile, command, ...args]]
    : [command, args];
  const started = performance.now();
  const child = spawn(cmd, argv, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  const wallMs = performance.now() - started;
  let cpuMs: number | undefined;
  let maxRssKb: number | undefined;
  if (HAVE_GNU_TIME && existsSync(timeFile)) {
    const line = readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
    const [u, s, m] = line.split(/\s+/).map(Number);
    if (Number.isFinite(u) && Number.isFinite(s)) cpuMs = (u! + s!) * 1000;
    if (Number.isFinite(m)) maxRssKb = m;
    rmSync(timeFile, { force: true });
  }
  return { wallMs, cpuMs, maxRssKb, code, stdout, stderr };
}

/** Runs a TypeScript child (through tsx) that prints one JSON line last; returns it parsed. */
export async function runJsonChild<T>(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<T> {
  // A compiled child (see compileChildren) runs on plain node: no tsx loader hooks in the
  // measured process (they would sit on every dynamic import()).
  const compiled = compiledChildren.get(script);
  const entry = compiled ? [compiled] : [...TSX_IMPORT, join(BENCH_DIR, script)];
  const run = await timedRun(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...args], {
    env: options.env ?? {},
    timeoutMs: options.timeoutMs ?? 300_000,
  });
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.code !== 0) throw new Error(`${script} ${args.join(' ')} exited ${run.code}: ${run.stderr.slice(-2000)}`);
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no JSON: ${run.stdout.slice(-500)} ${run.stderr.slice(-1500)}`);
  }
}

const compiledChildren = new Map<string, string>();

/**
 * Compiles child scripts (TypeScript, no local imports) to .mjs in `dir` (an app folder whose
 * node_modules holds the peers), so that they run on plain node like a user's app.
 */
export async function compileChildren(dir: string, scripts: string[]): Promise<void> {
  const esbuild = await import('esbuild');
  for (const script of scripts) {
    const outfile = join(dir, 'bench-children', script.replace(/\.ts$/, '.mjs'));
    await esbuild.build({
      entryPoints: [join(BENCH_DIR, script)],
      outfile,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      bundle: false,
      logLevel: 'error',
    });
    compiledChildren.set(script, outfile);
  }
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  loadAvgAtStart: number[];
}

export function machine(): Machine {
  const c = cpus();
  return {
    cpuModel: c[0]?.model?.trim() ?? 'unknown',
    cores: c.length,
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAvgAtStart: loadavg().map((x) => round(x, 2)),
  };
}

/**
 * The A/B tools' arguments: `<git-rev> [calls] [rounds] [--concurrency N]` (the option anywhere).
 * Throws `usage` when the revision is missing or N is not a number ≥ 1.
 */
export function abArgs(
  argv: string[],
  defaults: { calls: number; rounds: number; concurrency: number },
  usage: string,
): { rev: string; calls: number; rounds: number; concurrency: number } {
  const args = [...argv];
  const at = args.findIndex((a) => a === '--concurrency' || a === '-c');
  const concurrency = at >= 0 ? Number(args.splice(at, 2)[1]) : defaults.concurrency;
  const [rev, calls, rounds] = args;
  if (!rev || !(concurrency >= 1)) throw new Error(`usage: ${usage}`);
  return { rev, calls: Number(calls ?? defaults.calls), rounds: Number(rounds ?? defaults.rounds), concurrency };
}

/** The load average (1, 5, 15 min) as the A/B tools print it. */
export function loadAverages(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

export function load1(): number {
  return round(loadavg()[0]!, 2);
}

export function versionOf(pkg: string): string {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

/** A fresh temp folder, removed by `cleanupTemp()`. */
const temps: string[] = [];
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `im-bench-${prefix}-`));
  temps.push(dir);
  return dir;
}
export function cleanupTemp(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Files and lines below a folder (text files only, recursively). */
export function countTree(
  dir: string,
  filter: (rel: string) => boolean = () => true,
): { files: number; lines: number; bytes: number } {
  let files = 0;
  let lines = 0;
  let bytes = 0;
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) walk(full, r);
      else if (filter(r)) {
        const text = readFileSync(full, 'utf8');
        files++;
        bytes += Buffer.byteLength(text);
        lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      }
    }
  };
  walk(dir, '');
  return { files, lines, bytes };
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The loopback bench server (scripts/bench/server.ts) in its own process. */
export interface BenchServer {
  baseUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** Asks the server for its counters (bytes received by part uploads). */
  stats(): Promise<{ partBytes: number; parts: number }>;
}

export const ORG = 'bench-org';
export const APP = 'bench-app';
export const TOKEN = 'bench-app-token';

export async function startBenchServer(): Promise<BenchServer> {
  const compiled = compiledChildren.get('server.ts');
  const child = spawn(process.execPath, compiled ? [compiled] : [...TSX_IMPORT, join(BENCH_DIR, 'server.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const m = /LISTENING (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    child,
    stats: async () => (await (await fetch(`${baseUrl}/__stats`)).json()) as { partBytes: number; parts: number },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.stdin!.end(); // the server exits when its stdin closes
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

/** Self time of a V8 CPU profile, grouped by `group(url, functionName)`; ms, biggest first. */
export function profileSelfTime(
  profilePath: string,
  group: (url: string, fn: string) => string,
): { name: string; ms: number }[] {
  const p = JSON.parse(readFileSync(profilePath, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const key = group(n.callFrame.url, n.callFrame.functionName);
    totals.set(key, (totals.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}
