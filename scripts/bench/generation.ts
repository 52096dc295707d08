/**
 * 1. Generation: our generator (the CLI with --check: every step, nothing written) vs
 * openapi-typescript (types only) and @hey-api/openapi-ts (a fetch client), each a fresh process
 * on spec/openapi.yaml, runs interleaved (ours, ots, hey, ours, …) so that load on the machine
 * falls on all three alike.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileBothRows, type CliProfile } from './generation-profile.js';
import { BIN, countTree, ROOT, runJsonChild, tempDir, timedRun, type TimedRun } from './lib.js';

export interface GenTool {
  name: string;
  command: string;
  wallMs: number[];
  cpuMs: number[];
  maxRssKb: number[];
  output: { files: number; lines: number; bytes: number };
  emits: string;
  exitNote?: string;
}

export interface GenerationResult {
  runs: number;
  tools: GenTool[];
  /** Phase breakdown of our generator (skipped in smoke runs). */
  phases: PhaseReport | undefined;
  /** One more CLI run of each of our two rows under --cpu-prof, attributed by step (skipped in smoke runs). */
  cliProfiles?: { cold: CliProfile; warm: CliProfile };
  /** Where hey-api's output was left (the size section bundles one of its functions). */
  heyOut: string;
  otsOut: string;
}

export type PhaseReport = {
  importMs: number;
  phases: { name: string; wallMs: number; cpuMs: number }[];
  formattedFiles: number;
  realGenerate: { wallMs: number; cpuMs: number };
  operations: number;
  files: number;
  kinds: Record<string, { files: number; lines: number }>;
};

async function phaseRun(): Promise<PhaseReport> {
  return runJsonChild<PhaseReport>('generation-phases.ts', []);
}

export async function benchGeneration(opts: { runs: number; phases: boolean }): Promise<GenerationResult> {
  const work = tempDir('gen');
  // hey-api reads tsconfig.json from its working folder: NodeNext + DOM.Iterable (TOOLCHAIN.md).
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        skipLibCheck: true,
      },
    }),
  );
  const spec = join(ROOT, 'spec/openapi.yaml');
  // A one-line edit per warm run, different each time (as a developer editing the spec between
  // runs): a copy of the spec in the temp folder, given to the CLI with --spec.
  const specText = readFileSync(spec, 'utf8');
  const EDITED_LINE = 'description: Username.';
  if (!specText.includes(EDITED_LINE)) throw new Error(`spec/openapi.yaml has no line "${EDITED_LINE}" to edit`);
  const editedSpec = (i: number) => {
    const file = join(work, `openapi-edit-${i}.yaml`);
    writeFileSync(file, specText.replace(EDITED_LINE, `description: Username (edit ${i}).`));
    return file;
  };
  const tools: (GenTool & { run: (i: number) => Promise<TimedRun>; okCodes: number[] })[] = [
    {
      name: 'im-openapi (ours, after a spec edit: warm cache)',
      command:
        'node scripts/generate.mjs --check --spec <tmp>/openapi-edit-<run>.yaml (= npm run generate; spec/openapi.yaml with one description line edited, a different edit each run)',
      emits:
        'types, client (methods + standalone funcs), request validators, callback payload types + receiver kit, runtime, README/api.md',
      run: (i) =>
        timedRun(
          process.execPath,
          [join(ROOT, 'scripts/generate.mjs'), '--check', ...(i < 0 ? [] : ['--spec', editedSpec(i)])],
          { cwd: ROOT },
        ),
      // exit 1 = generated/ differs from the output (the edit, or work in progress): all the work was still done.
      okCodes: [0, 1],
      wallMs: [],
      cpuMs: [],
      maxRssKb: [],
      output: { files: 0, lines: 0, bytes: 0 },
    },
    {
      name: 'openapi-typescript',
      command: 'openapi-typescript spec/openapi.yaml -o <tmp>/schema.d.ts',
      emits: 'types only (one .d.ts)',
      run: (i) =>
        timedRun(process.execPath, [BIN.openapiTypescript, spec, '-o', join(work, `ots-${i}`, 'schema.d.ts')], {
          cwd: work,
        }),
      okCodes: [0],
      wallMs: [],
      cpuMs: [],
      maxRssKb: [],
      output: { files: 0, lines: 0, bytes: 0 },
    },
    {
      name: '@hey-api/openapi-ts',
      command: 'openapi-ts -i spec/openapi.yaml -o <tmp>/hey -c @hey-api/client-fetch (cwd with its own tsconfig.json)',
      emits: 'types, SDK functions, bundled fetch client',
      run: (i) =>
        timedRun(
          process.execPath,
          [BIN.heyApi, '-i', spec, '-o', join(work, `hey-${i}`), '-c', '@hey-api/client-fetch'],
          { cwd: work, env: { CI: 'true' } },
        ),
      okCodes: [0],
      wallMs: [],
      cpuMs: [],
      maxRssKb: [],
      output: { files: 0, lines: 0, bytes: 0 },
    },
    {
      name: 'im-openapi (ours, first run of a fresh clone: no cache)',
      command:
        'node scripts/generate.mjs --check --no-cache (= npm run generate; rebuilds its bundle of the generator too)',
      emits: 'the same as ours',
      run: () =>
        timedRun(process.execPath, [join(ROOT, 'scripts/generate.mjs'), '--check', '--no-cache'], { cwd: ROOT }),
      okCodes: [0, 1],
      wallMs: [],
      cpuMs: [],
      maxRssKb: [],
      output: { files: 0, lines: 0, bytes: 0 },
    },
  ];
  // Our generator keeps a cache (formatting, validators, parsed YAML) keyed by their inputs, as
  // after any earlier run: fill it once on the spec as committed, so that each warm run measures
  // what one edit since the previous run costs.
  await tools[0]!.run(-1);
  for (let i = 0; i < opts.runs; i++) {
    for (const t of tools) {
      const r = await t.run(i);
      if (!t.okCodes.includes(r.code ?? -1))
        throw new Error(`${t.name} exited ${r.code}: ${(r.stderr || r.stdout).slice(-1500)}`);
      if (r.code !== 0)
        t.exitNote =
          t === tools[0]
            ? `exit ${r.code} as expected: --check lists the files the edit changes (all the work was done)`
            : `exit ${r.code}: generated/ differs from the generator's output (the work was done all the same)`;
      t.wallMs.push(r.wallMs);
      if (r.cpuMs !== undefined) t.cpuMs.push(r.cpuMs);
      if (r.maxRssKb !== undefined) t.maxRssKb.push(r.maxRssKb);
    }
  }
  const last = opts.runs - 1;
  const phases = opts.phases ? await phaseRun() : undefined;
  const cliProfiles = opts.phases ? await profileBothRows(editedSpec(opts.runs)) : undefined;
  tools[0]!.output = countTree(
    join(ROOT, 'generated'),
    (p) => !p.startsWith('dist/') && !p.startsWith('node_modules/'),
  );
  tools[1]!.output = countTree(join(work, `ots-${last}`));
  tools[2]!.output = countTree(join(work, `hey-${last}`));
  tools[3]!.output = tools[0]!.output;
  return {
    runs: opts.runs,
    tools: tools.map(({ run: _r, okCodes: _o, ...t }) => t),
    phases,
    ...(cliProfiles ? { cliProfiles } : {}),
    heyOut: join(work, `hey-${last}`),
    otsOut: join(work, `ots-${last}`, 'schema.d.ts'),
  };
}
