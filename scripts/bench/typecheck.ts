/**
 * 5. Type-check: `tsc --noEmit` of a consumer that calls 20 operations through ImClient (types
 * from the built package's .d.ts) vs the same 20 calls through openapi-fetch with the types that
 * openapi-typescript emits for the same spec. Same tsconfig for both; fresh tsc process each run,
 * runs interleaved. The 20 operations are spread evenly over the sorted operation list, with
 * minimal valid params made from the spec (test/helpers/sample-params.ts).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApiModel } from '../../generator/build-model.js';
import { parseSpec } from '../../generator/load-spec.js';
import { readFileSync } from 'node:fs';
import { validParams } from '../../test/helpers/sample-params.js';
import { BIN, median, ROOT, timedRun } from './lib.js';

export interface TypecheckRow {
  consumer: string;
  label: string;
  wallMs: number;
  cpuMs: number | undefined;
  runsMs: number[];
  errors: string;
  diagnostics: Record<string, string>;
}

export interface TypecheckResult {
  runs: number;
  operations: string[];
  rows: TypecheckRow[];
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['*.ts'],
};

export async function benchTypecheck(opts: {
  runs: number;
  appsDir: string;
  otsSchema: string;
}): Promise<TypecheckResult> {
  const model = buildApiModel(parseSpec(readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8')));
  const ops = model.operations.filter((o) => !o.isTokenExchange).sort((a, b) => a.id.localeCompare(b.id));
  const step = Math.floor(ops.length / 20);
  const chosen = Array.from({ length: 20 }, (_, i) => ops[i * step]!);

  const ours: string[] = [
    `import { ImClient } from 'im-server-sdk';`,
    `const im = new ImClient({ baseUrl: 'http://127.0.0.1:4010', appKey: 'o#a', clientId: 'c', clientSecret: 's' });`,
    `export async function main() {`,
  ];
  const peer: string[] = [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './schema.js';`,
    `const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010', headers: { Authorization: 'Bearer t' } });`,
    `export async function main() {`,
  ];
  chosen.forEach((op, i) => {
    const params = validParams(model, op);
    ours.push(
      `  const r${i} = await im.${op.namespace}.${op.methodName}(${JSON.stringify(params)});`,
      `  console.log(r${i});`,
    );
    const path: Record<string, unknown> = {};
    if (op.specPath.includes('{org_name}')) path.org_name = 'o';
    if (op.specPath.includes('{app_name}')) path.app_name = 'a';
    const query: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    for (const f of op.pathParams) path[f.name] = params[f.name];
    for (const f of op.queryParams) if (f.name in params) query[f.name] = params[f.name];
    for (const f of op.body?.fields ?? []) if (f.name in params) body[f.name] = params[f.name];
    const init: string[] = [
      `params: { path: ${JSON.stringify(path)}${Object.keys(query).length ? `, query: ${JSON.stringify(query)}` : ''} }`,
    ];
    if (op.body) init.push(`body: ${JSON.stringify(body)}`);
    peer.push(
      `  const r${i} = await api.${op.method.toUpperCase()}(${JSON.stringify(op.specPath)}, { ${init.join(', ')} });`,
      `  console.log(r${i}.data);`,
    );
  });
  ours.push('}');
  peer.push('}');

  const dirs = { ours: join(opts.appsDir, 'tc-ours'), 'openapi-fetch': join(opts.appsDir, 'tc-openapi-fetch') };
  for (const d of Object.values(dirs)) {
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(d, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  }
  writeFileSync(join(dirs.ours, 'consumer.ts'), ours.join('\n') + '\n');
  writeFileSync(join(dirs['openapi-fetch'], 'consumer.ts'), peer.join('\n') + '\n');
  copyFileSync(opts.otsSchema, join(dirs['openapi-fetch'], 'schema.d.ts'));

  const labels = {
    ours: "ours: ImClient from 'im-server-sdk' (dist .d.ts)",
    'openapi-fetch': 'openapi-fetch + openapi-typescript schema.d.ts',
  };
  const samples: Record<string, { wall: number[]; cpu: number[]; errors: string }> = {};
  const diagnostics: Record<string, Record<string, string>> = {};
  for (const [name, dir] of Object.entries(dirs)) {
    // unmeasured first run: warms the file cache, collects errors and tsc's own diagnostics
    const r = await timedRun(process.execPath, [BIN.tsc, '-p', dir, '--extendedDiagnostics'], { cwd: dir });
    const d: Record<string, string> = {};
    for (const line of r.stdout.split('\n')) {
      const m =
        /^(Files|Lines of TypeScript|Lines of Definitions|Identifiers|Types|Instantiations|Memory used|Parse time|Bind time|Check time|Total time):\s+(.+)$/.exec(
          line.trim(),
        );
      if (m) d[m[1]!] = m[2]!.trim();
    }
    diagnostics[name] = d;
    samples[name] = {
      wall: [],
      cpu: [],
      errors:
        r.code === 0
          ? ''
          : r.stdout
              .split('\n')
              .filter((l) => l.includes('error TS'))
              .slice(0, 5)
              .join('\n'),
    };
  }
  for (let i = 0; i < opts.runs; i++) {
    for (const [name, dir] of Object.entries(dirs)) {
      const r = await timedRun(process.execPath, [BIN.tsc, '-p', dir], { cwd: dir });
      samples[name]!.wall.push(r.wallMs);
      if (r.cpuMs !== undefined) samples[name]!.cpu.push(r.cpuMs);
    }
  }
  return {
    runs: opts.runs,
    operations: chosen.map((o) => o.id),
    rows: Object.keys(dirs).map((name) => ({
      consumer: name,
      label: labels[name as keyof typeof labels],
      wallMs: median(samples[name]!.wall),
      cpuMs: samples[name]!.cpu.length ? median(samples[name]!.cpu) : undefined,
      runsMs: samples[name]!.wall.map((x) => Math.round(x)),
      errors: samples[name]!.errors,
      diagnostics: diagnostics[name]!,
    })),
  };
}
