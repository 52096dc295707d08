/** The RESULTS.md section about the package's size (tarball, one-operation app, features): target rows and text. */
import type { BenchResults } from './results.js';
import { featureGroups, missByFeature } from './size-features.js';
import { type Push, type TargetRow, kib, mib, num, ratio } from './report-format.js';
import type { PackagePart } from './size-package.js';

/** Issue 18's size rows (KB = 1,024 bytes, MB = 1,024 KB, as the tables print them). */
export function sizeTargets(s: NonNullable<BenchResults['size']>): TargetRow[] {
  const rows: TargetRow[] = [];
  const one = s.rows.find((x) => x.app === 'ours-one-op')!;
  const all = s.rows.find((x) => x.app === 'ours-all-ops')!;
  const t = s.tarball;
  if (t) {
    const needless = t.orphans.length + t.dangling.length;
    rows.push({
      target: '4. Packed package ≤ 2.5 MB unpacked, ≤ 500 files, every file needed',
      measured: `${mib(t.unpackedSize / 2 ** 20)} unpacked (${ratio(t.unpackedSize, 2.5 * 2 ** 20)} of the limit), ${num(t.entryCount)} files (${ratio(t.entryCount, 500)}); ${t.orphans.length} file(s) nothing needs, ${t.dangling.length} reference(s) to missing files`,
      pass: t.unpackedSize <= 2.5 * 2 ** 20 && t.entryCount <= 500 && needless === 0,
    });
  }
  rows.push({
    target: '4. App importing ImClient (esbuild, minified, splitting) ≤ 150 KB at start, validators as lazy chunks',
    measured: `${kib(all.start.minified)} at start in ${all.start.files} file(s) (${ratio(all.start.minified, 150 * 1024)} of the limit); ${num(all.lazy.files)} lazy chunks, ${kib(all.lazy.minified)} in all; validator chunks at start: ${all.validatorsAtStart.length}`,
    pass: all.start.minified <= 150 * 1024 && all.validatorsAtStart.length === 0 && all.lazy.files >= s.operations,
  });
  // issue 33: what a call that succeeds first time loads (start + its validator); the failure path is a lazy chunk
  const firstSuccess = one.firstSuccess ?? one;
  rows.push({
    target:
      '4. One-operation app ≤ 12 KB gzip with token, retries, timeouts, errors and lazy validation (what a call that succeeds first time loads)',
    measured: `${kib(firstSuccess.gzip)} gzip (${ratio(firstSuccess.gzip, 12 * 1024)} of the limit): ${kib(one.start.gzip)} at start + ${kib(firstSuccess.gzip - one.start.gzip)} validator chunk(s); the failure path (error classes per code, hints, retry decision) ${kib(one.gzip - firstSuccess.gzip)} more, loaded on the first failed attempt; ${kib(one.gzip)} gzip and ${kib(one.minified)} minified in all`,
    pass: firstSuccess.gzip <= 12 * 1024,
  });
  const oneFull = s.rows.find((x) => x.app === 'ours-one-op-full');
  if (oneFull) {
    rows.push({
      target: '4. (explanation) the same one-operation app over ImCore (every feature)',
      measured: `${kib(oneFull.gzip)} gzip: the features ImLeanCore leaves out weigh ${kib(oneFull.gzip - one.gzip)} gzip`,
      pass: null,
    });
  }
  rows.push({
    target: '4. One optional field added to the most shared schema: ≤ 10 generated files change',
    measured: `${s.sharedEdit.filesChanged} files (${ratio(s.sharedEdit.filesChanged, 10)} of the limit), ${s.sharedEdit.linesChanged} new lines; ${s.sharedEdit.schema}, reached by ${s.sharedEdit.reachedBy} operations`,
    pass: s.sharedEdit.filesChanged <= 10,
  });
  return rows;
}

/** The unpacked bytes by part, with what asks for each; over the limit, by how much and what would have to go. */
function renderPackageParts(unpacked: number, parts: PackagePart[], p: Push): void {
  const limit = 2.5 * 2 ** 20;
  p(
    `The unpacked bytes by part (scripts/bench/size-package.ts; a .d.ts file's \`/** */\` comments counted apart from its declarations):`,
    '',
    '| part | files | bytes | share | what asks for it |',
    '|---|---|---|---|---|',
    ...parts.map(
      (x) => `| ${x.part} | ${num(x.files)} | ${kib(x.bytes)} | ${num((100 * x.bytes) / unpacked, 1)} % | ${x.why} |`,
    ),
    '',
  );
  if (unpacked <= limit) return;
  const over = unpacked - limit;
  // the smallest parts that would have to go whole to meet the limit, largest first: what the miss is made of
  const enough = [...parts].sort((a, b) => a.bytes - b.bytes).find((x) => x.bytes >= over);
  p(
    `Over the 2.5 MB limit by ${kib(over)}. ${enough ? `The smallest single part as large as that is "${enough.part}" (${kib(enough.bytes)}): meeting the limit means dropping what it is there for, or cutting several parts at once.` : 'No single part is that large.'}`,
    '',
  );
}

/** Section size of RESULTS.md. */
export function renderSize(r: BenchResults, p: Push): void {
  if (r.size) {
    const s = r.size;
    p('## 4. Size', '');
    p(
      "esbuild (`bundle: true, minify: true, treeShaking: true, splitting: true, format: esm, platform: node, target: node20`) of each app, as an app would ship it. *At start* is the entry and every chunk it imports statically; *lazy* is every chunk reached only by a dynamic `import()` that survived tree shaking (our per-operation validators, loaded on an operation's first call); *never loaded* are chunks esbuild still writes for dynamic imports in code tree shaking removed (its metafile lists only the live imports). gzip is zlib level 9 of each output file on its own, summed; *all* is start + lazy. KB = 1,024 bytes.",
      '',
    );
    p(
      '| app | at start: minified | at start: gzip | lazy chunks | lazy: minified | lazy: gzip | all: gzip | never loaded |',
      '|---|---|---|---|---|---|---|---|',
      ...s.rows.map(
        (x) =>
          `| ${x.label} | ${kib(x.start.minified)} | ${kib(x.start.gzip)} | ${num(x.lazy.files)} | ${kib(x.lazy.minified)} | ${kib(x.lazy.gzip)} | ${kib(x.gzip)} | ${num(x.neverLoaded.files)} files, ${kib(x.neverLoaded.minified)} |`,
      ),
      '',
    );
    if (s.tarball) {
      p(
        `Packed tarball (\`npm pack\` of the built package, files as its package.json lists them): **${kib(s.tarball.size)}**, ${num(s.tarball.entryCount)} files, ${kib(s.tarball.unpackedSize)} unpacked. Every file must be needed: named by package.json (exports, main, types, bin, typesVersions), imported or referenced by a needed file (static and dynamic imports, re-exports, type references; TypeScript's pre-processor reads them), linked from a docs file, or a docs file itself (scripts/lib/package-reach.ts). Files nothing needs: ${s.tarball.orphans.length ? s.tarball.orphans.join(', ') : 'none'}; references to files the tarball lacks: ${s.tarball.dangling.length ? s.tarball.dangling.join(', ') : 'none'}.`,
        '',
      );
      if (s.tarball.composition) renderPackageParts(s.tarball.unpackedSize, s.tarball.composition, p);
    }
    const one = s.rows.find((x) => x.app === 'ours-one-op')!;
    p(
      `The one-operation app loads ${kib((one.firstSuccess ?? one).gzip)} gzip for a call that succeeds first time (its start chunks and its validator) against a target of 12.0 KB (${(one.firstSuccess ?? one).gzip <= 12 * 1024 ? 'under' : 'over'} by ${num(Math.abs((one.firstSuccess ?? one).gzip - 12 * 1024))} bytes); ${kib(one.gzip)} gzip with every lazy chunk its code imports (the failure path too). Built as one file instead (no splitting, its validator bundled in, as this row was measured before): ${kib(s.oneOpSingleFile.gzip)} gzip, ${kib(s.oneOpSingleFile.minified)} minified.`,
      '',
    );
    const e = s.sharedEdit;
    p(
      `One optional string field added to ${e.schema} (the object schema the most operations reach: ${e.reachedBy}), generated in memory before and after (scripts/lib/shared-edit.ts): ${e.filesChanged} generated files change, ${e.linesChanged} new lines: ${e.changed.map((c) => `\`${c}\``).join(', ')}.`,
      '',
    );
    const srcTotal = s.oneOpInputs.reduce((n, x) => n + x.bytes, 0);
    p(
      `What the one-operation app carries, by source module: the same app built from the package's TypeScript sources (the published chunks merge modules), bytes each module adds to the minified output (${kib(srcTotal)} in all; modules under 100 bytes left out):`,
      '',
    );
    p(
      '| module | bytes | share | loaded |',
      '|---|---|---|---|',
      ...s.oneOpInputs
        .filter((x) => x.bytes >= 100)
        .map(
          (x) =>
            `| ${x.path} | ${num(x.bytes)} | ${num((100 * x.bytes) / srcTotal, 1)} % | ${x.lazy ? 'lazily' : 'at start'} |`,
        ),
      '',
    );
    // the same bytes by feature: what the miss is made of (scripts/bench/size-features.ts)
    p(
      `By feature (the modules above summed; *≈ gzip* is the feature's share of the minified bytes times the app's ${kib(one.gzip)} gzip, an estimate: gzip does not split by module; *at first success* leaves out the failure path, which loads on a failed attempt only):`,
      '',
    );
    p(
      '| feature | minified | share | ≈ gzip | at first success: minified | why the one-operation app carries it | modules |',
      '|---|---|---|---|---|---|---|',
      ...featureGroups(s.oneOpInputs).map(
        (g) =>
          `| ${g.feature} | ${num(g.bytes)} | ${num((100 * g.bytes) / srcTotal, 1)} % | ${kib((g.bytes / srcTotal) * one.gzip)} | ${s.oneOpInputs.some((x) => x.failure !== undefined) ? num(g.firstSuccessBytes) : '–'} | ${g.why} | ${g.modules.join(', ')} |`,
      ),
      '',
    );
    if (one.gzip > 12 * 1024)
      p(
        missByFeature(
          featureGroups(s.oneOpInputs),
          (one.firstSuccess ?? one).gzip,
          (one.firstSuccess ?? one).gzip - 12 * 1024,
        ),
        '',
      );
  }
}
