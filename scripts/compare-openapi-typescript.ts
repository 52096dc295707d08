/**
 * `npm run compare:ots -- [spec]` (default: the constructs fixture): our generated types beside
 * openapi-typescript's for the same YAML, operation by operation. For each operation it asks the
 * TypeScript checker whether our params type and openapi-typescript's flat params (path without
 * org/app, query, header, cookie, and the JSON request body) are mutually assignable, and the same
 * for the result of the first success status. Prints a table and writes
 * dist-artifacts/compare-ots/<spec>.json. A measurement, not a test: it reports what it finds.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project } from 'ts-morph';
import { namespaceTypesFile, paramsTypeName, resultTypeName } from '../generator/emit/emit-namespace-types.js';
import { generateToTempDir } from './lib/generate-to-dir.js';
import { OTS_FLATTEN_TYPES } from './lib/ots-flatten.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const specPath = process.argv[2] ?? 'test/fixtures/constructs-openapi.yaml';

async function main(): Promise<void> {
  const { dir, output } = await generateToTempDir(root, specPath);
  const work = mkdtempSync(join(tmpdir(), 'im-compare-ots-'));
  // openapi-typescript run inside the repo picks up redocly.yaml (TOOLCHAIN.md): run it from a temp folder.
  cpSync(join(root, specPath), join(work, 'spec.yaml'));
  const ots = spawnSync(
    process.execPath,
    [join(root, 'node_modules/openapi-typescript/bin/cli.js'), 'spec.yaml', '-o', 'ots.ts'],
    { cwd: work, encoding: 'utf8' },
  );
  if (ots.status !== 0) throw new Error(`openapi-typescript failed: ${ots.stderr}`);

  const lines = [`import type { operations } from './ots.js';`, OTS_FLATTEN_TYPES];
  const rows: { id: string; params: string; result: string }[] = [];
  for (const op of output.model.operations) {
    const ours = join(dir, namespaceTypesFile(op.namespace)).replace(/\.ts$/, '.js');
    const key = JSON.stringify(op.id);
    const safe = op.funcName;
    lines.push(
      `export type P_${safe} = Rel<import(${JSON.stringify(ours)}).${paramsTypeName(op)}, FlatOf<operations[${key}]>>;`,
    );
    lines.push(
      `export type R_${safe} = Rel<import(${JSON.stringify(ours)}).${resultTypeName(op)}, ResultOf<operations[${key}], ${op.successStatuses[0]}>>;`,
    );
    rows.push({ id: op.id, params: `P_${safe}`, result: `R_${safe}` });
  }
  writeFileSync(join(work, 'check.ts'), lines.join('\n'));
  const project = new Project({
    compilerOptions: {
      strict: true,
      target: 99,
      module: 199,
      moduleResolution: 99,
      skipLibCheck: true,
      noEmit: true,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  });
  project.addSourceFileAtPath(join(work, 'ots.ts'));
  const check = project.addSourceFileAtPath(join(work, 'check.ts'));
  project.resolveSourceFileDependencies();
  // An unresolved import would read as `any` and count as assignable: refuse to report then.
  const problems = check
    .getPreEmitDiagnostics()
    .map((d) => d.getMessageText())
    .map((m) => (typeof m === 'string' ? m : m.getMessageText()));
  if (problems.length) throw new Error(`the comparison file does not type-check:\n${problems.slice(0, 5).join('\n')}`);
  const verdict = (name: string) => check.getTypeAliasOrThrow(name).getType().getText().replace(/"/g, '');
  const results = rows.map((r) => ({ id: r.id, params: verdict(r.params), result: verdict(r.result) }));

  const count = (k: 'params' | 'result', v: string) => results.filter((r) => r[k] === v).length;
  console.log(`| operation | params | result |\n|---|---|---|`);
  for (const r of results) console.log(`| ${r.id} | ${r.params} | ${r.result} |`);
  for (const k of ['params', 'result'] as const) {
    console.log(
      `${k}: ${count(k, 'both')}/${results.length} mutually assignable, ${count(k, 'ours-to-theirs')} ours→theirs only, ${count(k, 'theirs-to-ours')} theirs→ours only, ${count(k, 'neither')} neither`,
    );
  }
  const outDir = join(root, 'dist-artifacts/compare-ots');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, `${basename(specPath, '.yaml')}.json`),
    `${JSON.stringify({ spec: specPath, results }, null, 2)}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
