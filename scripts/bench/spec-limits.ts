/**
 * `npx tsx scripts/bench/spec-limits.ts [--runs N] [--only a,b]`: what `generate` costs, and what
 * it refuses, as the spec grows (issue 25). Each shape is generated in a fresh process
 * (spec-limits-child.ts, no cache); wall time from spawn to exit, peak RSS by GNU time.
 *
 * Shapes (made in a temp folder from spec/openapi.yaml, never committed):
 * - `1x`, `10x`, `30x`: the synthetic specs of the scale bench (every namespace repeated);
 * - `description-12mb`: the real spec with one operation description of 12 MB (under the limit);
 * - `description-60mb`: the same at 60 MB (the size the issue found accepted);
 * - `ref-bomb-N`: N component schemas, each with two properties referring to the next, used by
 *   one response (about 2 KB of YAML that a validator inlines 2^N times): 10 is the largest one
 *   operation may inline, 14 took about 1 GB before issue 25;
 * - `ref-bomb-10-30x`: the 30× synthetic spec with such a bomb in each of its 30 copies (as much
 *   as the limit on all operations together lets through).
 * The memory bound is stated against the spec's size: RSS ≤ base + factor × spec bytes (README).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, median, ROOT, round, tempDir, timedRun, TSX_IMPORT } from './lib.js';
import { syntheticSpec } from './synthetic-spec.js';

interface Shape {
  name: string;
  text: string;
  /** A limit above the default, for shapes that measure the bound past it. */
  maxSpecBytes?: number;
}

function withDescription(base: string, bytes: number): string {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, bytes);
  // the operation description of users.get (a one-line scalar): the longest text path into the output
  return base.replace(
    /(operationId: users\.get\n(?:.*\n)*?\s*description: )"[^\n]*"/,
    (_m, head: string) => `${head}"${filler}"`,
  );
}

function refBomb(base: string, depth: number): string {
  let schemas = '';
  for (let i = 0; i < depth; i++) {
    schemas += `    Bomb${i}:\n      type: object\n      properties:\n        a:\n          $ref: "#/components/schemas/Bomb${i + 1}"\n        b:\n          $ref: "#/components/schemas/Bomb${i + 1}"\n`;
  }
  schemas += `    Bomb${depth}:\n      type: string\n`;
  const text = base.replace(/\n {2}schemas:\n/, `\n  schemas:\n${schemas}`);
  return text.replace(
    /(operationId: users\.get\n[\s\S]*?schema:\n\s*)\$ref: "#\/components\/schemas\/User"/,
    '$1$ref: "#/components/schemas/Bomb0"',
  );
}

function shapes(): Shape[] {
  const base = readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8');
  return [
    { name: '1x', text: base },
    { name: '10x', text: syntheticSpec(base, 10).text },
    { name: '30x', text: syntheticSpec(base, 30).text },
    { name: 'description-12mb', text: withDescription(base, 12 * 2 ** 20) },
    { name: 'description-60mb', text: withDescription(base, 60 * 2 ** 20) },
    { name: 'ref-bomb-10', text: refBomb(base, 10) },
    { name: 'ref-bomb-14', text: refBomb(base, 14) },
    { name: 'ref-bomb-10-30x', text: syntheticSpec(refBomb(base, 10), 30).text },
  ];
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(argValue('--runs') ?? 1);
const only = argValue('--only')?.split(',');
const work = tempDir('spec-limits');
const rows: string[] = [
  '| shape | spec | result | wall (median) | peak RSS (median) | RSS ÷ spec |',
  '|---|---|---|---|---|---|',
];
for (const shape of shapes().filter((s) => !only || only.includes(s.name))) {
  const file = join(work, `${shape.name}.yaml`);
  writeFileSync(file, shape.text);
  const bytes = Buffer.byteLength(shape.text);
  const walls: number[] = [];
  const rss: number[] = [];
  let result = '';
  for (let i = 0; i < runs; i++) {
    const r = await timedRun(
      process.execPath,
      [
        ...TSX_IMPORT,
        join(BENCH_DIR, 'spec-limits-child.ts'),
        file,
        ...(shape.maxSpecBytes ? [String(shape.maxSpecBytes)] : []),
      ],
      { timeoutMs: 900_000 },
    );
    const line = r.stdout.trim().split('\n').pop() ?? '';
    const parsed =
      r.code === 0 && line.startsWith('{')
        ? (JSON.parse(line) as { result: string; rule?: string; files?: number })
        : undefined;
    result = parsed
      ? parsed.result === 'accepted'
        ? `accepted (${parsed.files} files)`
        : `refused: ${parsed.rule}`
      : `crashed (exit ${r.code}): ${r.stderr.trim().split('\n').filter(Boolean).slice(-1)[0]?.slice(0, 120) ?? ''}`;
    walls.push(r.wallMs);
    if (r.maxRssKb !== undefined) rss.push(r.maxRssKb / 1024);
  }
  const mib = bytes / 2 ** 20;
  const row = `| ${shape.name} | ${round(mib, 2)} MiB | ${result} | ${Math.round(median(walls)).toLocaleString('en')} ms | ${round(median(rss), 1)} MiB | ${round(median(rss) / mib, 1)}× |`;
  console.log(row);
  rows.push(row);
  rmSync(file, { force: true });
}
rmSync(work, { recursive: true, force: true });
console.log(`\n${rows.join('\n')}`);
