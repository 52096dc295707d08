/**
 * `npm run release -- --dry-run`: what the next release of im-server-sdk would be — the version,
 * the change report (spec rules and the type check), the changed runtime files and the packed file
 * list (built from clean and checked by the package's prepack). Without `--dry-run` it writes the
 * version into generated/package.json and a dated section into generated/CHANGELOG.md (with the
 * notes of release-notes/next.md, which it then empties), then regenerates; commit, tag
 * `im-server-sdk@<version>` and `npm publish` (with `--tag <preid>` for a prerelease) follow.
 *
 * - `--base <tag|ref|file|npm:version>`: what to compare with (default: the tag of the current
 *   version, `im-server-sdk@<version>`); a base that does not resolve is refused, never skipped.
 * - Versions (scripts/lib/versions.ts): before 1.0 breaking → minor, addition → patch
 *   (release.config.json `preMajor`); `--graduate` for 1.0.0; `--preid rc` for a prerelease
 *   channel; `--bump major|minor|patch` to ask for at least that bump.
 * - A runtime or template change alone is a patch, its files listed.
 * - Run twice, it does not bump twice: a version it prepared and nobody tagged yet is recognised by
 *   its CHANGELOG section, which is kept (the same change: nothing to do) or rewritten in place (the
 *   change grew since: the version is recomputed from the one before).
 * - `--first`: the first release of the version package.json already has (no comparison).
 * - `--date YYYY-MM-DD`: the section's date (default today, UTC; SOURCE_DATE_EPOCH is honoured).
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportOf, reportSummary, type ChangeReport } from '../generator/diff/report.js';
import { specModel } from '../generator/generate.js';
import { buildChangeReport, NOTES_FILE, stripTemplate } from './lib/change-report.js';
import { changelogSection, parseChangelog, withSection, type ReleaseMarker } from './lib/changelog.js';
import { PACKAGE_NAME, resolveBase } from './lib/resolve-base.js';
import { DEFAULT_RULES, distTag, effectiveBump, nextVersion, type Bump, type VersionRules } from './lib/versions.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkgDir = join(root, 'generated');
const BUMPS: Bump[] = ['major', 'minor', 'patch'];

export const NOTES_TEMPLATE = `<!--
  Notes for the next release of im-server-sdk, in your words: why, what to do. \`npm run release\`
  puts them under "Notes" in generated/CHANGELOG.md and empties this file.
  A breaking change is accepted by the CI gate (generate --fail-on breaking) only when this file
  names its SDK call, e.g. "im.users.get(): the result's nickname may now be null; check it".
-->
`;

function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

function rulesOf(): VersionRules {
  const file = join(root, 'release.config.json');
  if (!existsSync(file)) return DEFAULT_RULES;
  const pre = JSON.parse(readFileSync(file, 'utf8')).preMajor ?? {};
  const rules = {
    preMajorBreaking: pre.breaking ?? DEFAULT_RULES.preMajorBreaking,
    preMajorAddition: pre.addition ?? DEFAULT_RULES.preMajorAddition,
  };
  if (!['major', 'minor'].includes(rules.preMajorBreaking) || !['minor', 'patch'].includes(rules.preMajorAddition))
    throw new Error(`release.config.json: preMajor.breaking takes major or minor, preMajor.addition minor or patch`);
  return rules;
}

function today(): string {
  const given = arg('--date');
  if (given) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(given)) throw new Error(`--date takes YYYY-MM-DD, not ${given}`);
    return given;
  }
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return new Date(epoch ? Number(epoch) * 1000 : Date.now()).toISOString().slice(0, 10);
}

const tagExists = (version: string) =>
  spawnSync('git', ['rev-parse', '-q', '--verify', `refs/tags/${PACKAGE_NAME}@${version}`], { cwd: root }).status === 0;

const fingerprint = (parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

/** The bigger of two bumps. */
const atLeast = (a: Bump | undefined, b: Bump | undefined): Bump | undefined =>
  a && b ? BUMPS[Math.min(BUMPS.indexOf(a), BUMPS.indexOf(b))] : (a ?? b);

/** The change report the release is judged by: against the tag of `from` (or --base, or the pending release's base). */
function changeReportSince(
  from: string,
  top: { version: string } | undefined,
  pending: ReleaseMarker | undefined,
  specText: string,
): { report: ChangeReport; baseArg: string } | { refused: number } {
  if (process.argv.includes('--first')) {
    if (top) return { refused: refuse(`--first: CHANGELOG.md already has a release (${top.version})`) };
    return { baseArg: '(first release)', report: reportOf('nothing (first release)', [], 'skipped') };
  }
  const baseArg = arg('--base') ?? pending?.base ?? `${PACKAGE_NAME}@${from}`;
  const base = resolveBase(root, baseArg);
  if ('error' in base)
    return {
      refused: refuse(
        `cannot compare with ${baseArg}: ${base.error}.${arg('--base') ? '' : ` Tag the commit ${PACKAGE_NAME}@${from} was released from, or pass --base <ref|file|npm:${from}>; for a first release, --first.`}`,
      ),
    };
  const head = specModel(
    specText,
    'spec/openapi.yaml',
    JSON.parse(readFileSync(join(root, 'spec/extensions.schema.json'), 'utf8')),
  );
  const built = buildChangeReport(root, head, base, { types: true });
  if ('error' in built) return { refused: refuse(built.error) };
  return { report: built, baseArg };
}

function main(): number {
  const dryRun = process.argv.includes('--dry-run');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const changelogPath = join(pkgDir, 'CHANGELOG.md');
  const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '# Changelog\n';
  const top = parseChangelog(changelog).sections[0];
  // a section this script wrote for the current version, not tagged yet: that release is still being prepared
  const pending = top?.marker && top.version === pkg.version && !tagExists(pkg.version) ? top.marker : undefined;
  const from = pending ? pending.from : pkg.version;
  const notesPath = join(root, arg('--notes') ?? NOTES_FILE);
  const freshNotes = existsSync(notesPath) ? stripTemplate(readFileSync(notesPath, 'utf8')) : '';
  const notes = [pending ? top!.notes : '', freshNotes].filter(Boolean).join('\n\n');
  const specText = readFileSync(join(root, 'spec/openapi.yaml'), 'utf8');

  const compared = changeReportSince(from, top, pending, specText);
  if ('refused' in compared) return compared.refused;
  const { report, baseArg } = compared;
  console.log(reportSummary(report));

  const asked = arg('--bump') as Bump | undefined;
  if (asked && !BUMPS.includes(asked)) throw new Error(`--bump takes major, minor or patch, not ${asked}`);
  const graduate = process.argv.includes('--graduate');
  const preid = arg('--preid');
  const first = baseArg === '(first release)';
  const bump = atLeast(asked, report.bump === 'none' ? undefined : report.bump);
  if (!bump && !graduate && !first) {
    console.log(
      `release: nothing to release (no API or runtime change since ${report.base}); --bump patch releases anyway`,
    );
    return dryRun ? 0 : 1;
  }
  const rules = rulesOf();
  const version = first
    ? pkg.version
    : nextVersion(from, bump ?? 'patch', { rules, ...(preid ? { preid } : {}), graduate });
  const why = first
    ? 'first release'
    : graduate
      ? 'graduation to 1.0, as asked'
      : `${effectiveBump(from, bump!, rules)}${asked ? ', as asked' : ''}${from.startsWith('0.') && bump !== effectiveBump(from, bump!, rules) ? ` (${report.bump === 'major' ? 'breaking' : 'additions'} before 1.0; --graduate for 1.0.0)` : ''}`;
  const runtimeText = (report.runtime ?? []).map(
    (f) => `${f}:${existsSync(join(root, f)) ? readFileSync(join(root, f), 'utf8') : ''}`,
  );
  const marker: ReleaseMarker = {
    version,
    from,
    base: baseArg,
    fingerprint: fingerprint([version, specText, ...runtimeText, notes]),
  };

  if (pending && pending.fingerprint === marker.fingerprint) {
    console.log(
      `release: ${PACKAGE_NAME} ${pkg.version} is already prepared for this change (its CHANGELOG section is there, not tagged yet): nothing to do. Commit, \`git tag ${PACKAGE_NAME}@${pkg.version}\`, \`npm publish${distTag(pkg.version) === 'latest' ? '' : ` --tag ${distTag(pkg.version)}`}\` in generated/.`,
    );
    return 0;
  }
  console.log(
    `release: ${PACKAGE_NAME} ${from} → ${version} (${why})${pending ? `; ${pkg.version} was prepared and not tagged, its section is written again` : ''}`,
  );
  if (preid)
    console.log(
      `release: a prerelease on the "${distTag(version)}" channel: publish with \`npm publish --tag ${distTag(version)}\` (users opt in with ${PACKAGE_NAME}@${distTag(version)})`,
    );

  if (!dryRun) {
    pkg.version = version;
    writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const section = changelogSection({ version, date: today(), report, marker, why, notes });
    writeFileSync(changelogPath, withSection(changelog, section, !!pending));
    mkdirSync(dirname(notesPath), { recursive: true });
    if (arg('--notes') === undefined) writeFileSync(notesPath, NOTES_TEMPLATE);
    // package.json is the template's and sdk-version.ts follows it: regenerate so both stand as generate writes them
    // (as `npm run generate` does: scripts/generate.mjs, the cached generator bundle, not tsx compiling it afresh)
    execFileSync(process.execPath, [join(root, 'scripts/generate.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  return packList(version, dryRun);
}

/** The file list as npm would pack it: prepack checks versions and staleness, builds from clean, runs publint and attw. */
function packList(version: string, dryRun: boolean): number {
  if (process.argv.includes('--no-pack')) return 0;
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
    cwd: pkgDir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (packed.status !== 0) return refuse(`npm pack refused the package:\n${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout);
  const files: string[] = info.files.map((f: { path: string }) => f.path).sort();
  console.log(
    `release: ${info.name}@${dryRun ? version : info.version} would pack ${files.length} files, ${(info.unpackedSize / 1024 / 1024).toFixed(2)} MB unpacked:`,
  );
  const dirs = new Map<string, number>();
  for (const f of files)
    dirs.set(f.split('/').slice(0, 2).join('/'), (dirs.get(f.split('/').slice(0, 2).join('/')) ?? 0) + 1);
  for (const [d, n] of dirs) console.log(`  ${d}${n > 1 ? `  (${n} files)` : ''}`);
  const tag = distTag(version);
  console.log(
    dryRun
      ? 'release: dry run, nothing written. Run `npm run release` to write the version and CHANGELOG.md.'
      : `release: written. Next: commit, \`git tag ${PACKAGE_NAME}@${version}\`, then \`npm publish${tag === 'latest' ? '' : ` --tag ${tag}`}\` in generated/.`,
  );
  return 0;
}

function refuse(message: string): number {
  console.error(`release: ${message}`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main());
