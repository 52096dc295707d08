/**
 * Where one real `npm run generate -- --check` run spends its main thread: the CLI under
 * `node --cpu-prof`, its samples attributed to the step of the CLI they ran in. This is what the
 * generation rows' explanation is computed from (the cold run and the warm run after a one-line
 * edit), so a miss is explained by the run's own profile, not by a hand-written list.
 *
 * A sample belongs to the innermost named step on its stack, except inside the change report,
 * which owns all it calls (it models the base spec with the same functions as the head's).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, timedRun } from './lib.js';

/** A step of the CLI: the functions whose samples are its, and what it pays for. */
export interface CliStep {
  name: string;
  /** Function names in the generator's bundle (generate-cli.cjs), or `name@file` for another file (`@` alone: V8's own). */
  functions: readonly string[];
  /** The guarantee, seed rule or issue this cost pays for. */
  paysFor: string;
}

export const CLI_STEPS: readonly CliStep[] = [
  {
    name: 'change report (base spec modelled and compared)',
    functions: ['runGate'],
    paysFor: 'the release gate: every edit is classed breaking / addition against the committed spec (issue 21)',
  },
  {
    name: 'parse YAML',
    functions: ['readSpecDocument'],
    paysFor: 'reading the spec; limits on size, aliases and depth (README "Limits on input")',
  },
  {
    name: 'check the spec (refs, names, extensions, schemas)',
    functions: ['parseSpecWithWarnings', 'callbacksModel'],
    paysFor: 'bad input refused with a located error naming the field and the rule (the standards)',
  },
  {
    name: 'model (names, normalize, wire, callbacks)',
    functions: ['specModel', 'buildCallbackModel'],
    paysFor: 'one model every emitter reads (spec → model → emitters)',
  },
  {
    name: 'emit validators (Ajv standalone)',
    functions: ['emitValidators'],
    paysFor: 'bad input refused before sending: a request validator per operation',
  },
  {
    name: 'emit operations code (ts-morph)',
    functions: ['emitFuncsAndResources', 'emitEntryPoints', 'emitTestingEntry'],
    paysFor: 'the client: a method and a standalone function per operation, with their JSDoc',
  },
  {
    name: 'emit types and operation table',
    functions: ['emitSchemaTypes', 'emitWebhookTypes', 'emitOperations', 'emitNamespaceTypes'],
    paysFor: 'typed params and results; the retry class and dedupe key of each operation (REST seed §4)',
  },
  {
    name: 'emit callbacks kit, package files, runtime copy',
    functions: [
      'emitCallbackTypes',
      'emitDeliveryRules',
      'emitPackageFiles',
      'emitRuntimeCopy',
      'emitExamplesCopy',
      'packageExtras',
    ],
    paysFor: 'callback payload types and delivery rules (callbacks seed); README, api.md, package.json',
  },
  {
    name: 'format (Biome; the binary runs in its own process)',
    functions: ['formatFiles'],
    paysFor: 'readable generated code',
  },
  {
    name: 'cache (fingerprint, read, write)',
    functions: ['DiskGeneratorCache', 'generatorFingerprint', 'save'],
    paysFor: 'the warm path itself',
  },
  {
    name: 'read inputs; compare with generated/',
    functions: ['main', 'readGeneratorInput'],
    paysFor: '--check: every file compared with the committed package',
  },
  {
    name: "bundle the generator (esbuild; --no-cache's first run)",
    functions: ['build@scripts/generate.mjs'],
    paysFor: 'plain node instead of tsx on every later run',
  },
  {
    name: 'garbage collection',
    functions: ['(garbage collector)@'],
    paysFor: 'all of the above',
  },
];

/** The generator's bundle that scripts/generate.mjs builds and runs. */
const BUNDLE = 'generate-cli.cjs';

/** Whatever ran outside every named step: node's start, loading and compiling modules (ts-morph, TypeScript, Ajv, yaml). */
export const OUTSIDE = 'start-up and module loading (node, ts-morph/TypeScript, Ajv, yaml)';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface CliProfile {
  /** Sampled main-thread ms (idle excluded). */
  totalMs: number;
  steps: { name: string; ms: number; paysFor: string }[];
}

/** A V8 CPU profile's samples attributed to CLI_STEPS (ms each, in CLI_STEPS order, then OUTSIDE). */
export function attributeProfile(profile: CpuProfile, steps: readonly CliStep[] = CLI_STEPS): CliProfile {
  const named: { fn: string; file: string; step: number }[] = steps.flatMap((s, step) =>
    s.functions.map((f) => {
      const at = f.indexOf('@');
      return at < 0 ? { fn: f, file: BUNDLE, step } : { fn: f.slice(0, at), file: f.slice(at + 1), step };
    }),
  );
  const stepOfFrame = ({ functionName, url }: { functionName: string; url: string }): number | undefined =>
    named.find((n) => n.fn === functionName && (n.file === '' ? url === '' : url.endsWith(n.file)))?.step;
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const owner = new Map<number, number>();
  /** The step of a node: the innermost named one above it, or the outermost when that is the change report (step 0). */
  const stepOfNode = (id: number): number => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    let innermost = -1;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const step = stepOfFrame(byId.get(at)!.callFrame);
      if (step === 0) {
        innermost = 0;
        break;
      }
      if (step !== undefined && innermost < 0) innermost = step;
    }
    owner.set(id, innermost);
    return innermost;
  };
  const ms = new Array<number>(steps.length + 1).fill(0);
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const step = stepOfNode(id);
    ms[step < 0 ? steps.length : step]! += (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return {
    totalMs: ms.reduce((a, b) => a + b, 0),
    steps: [
      ...steps.map((s, i) => ({ name: s.name, ms: ms[i]!, paysFor: s.paysFor })),
      { name: OUTSIDE, ms: ms[steps.length]!, paysFor: 'running a TypeScript-writing generator at all' },
    ],
  };
}

/** One CLI run (`args` after `--check`) under --cpu-prof, attributed. */
export async function profileCliRun(args: string[]): Promise<CliProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'im-gen-prof-'));
  try {
    const run = await timedRun(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(ROOT, 'scripts/generate.mjs'), '--check', ...args],
      { cwd: ROOT },
    );
    if (run.code !== 0 && run.code !== 1) throw new Error(`generate exited ${run.code}: ${run.stderr.slice(-1000)}`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('node --cpu-prof wrote no profile');
    return attributeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both rows of section 1, after their timed rounds (the warm one first, so it follows a warm run as each timed one did). */
export async function profileBothRows(editedSpec: string): Promise<{ cold: CliProfile; warm: CliProfile }> {
  const warm = await profileCliRun(['--spec', editedSpec]);
  return { warm, cold: await profileCliRun(['--no-cache']) };
}
