/**
 * `npm run release -- --dry-run`: what the next release of im-server-sdk would be — the version
 * (bumped from the change report: major for breaking, minor for additions, patch otherwise), the
 * change summary and the packed file list (built from clean and checked by the package's prepack).
 * Without `--dry-run` it writes the version into generated/package.json and the change report as
 * a new section of generated/CHANGELOG.md, then regenerates; commit, tag and `npm publish` follow.
 *
 * `--base <ref|file>`: what to compare with (default: the tag of the current version,
 * `im-server-sdk@<version>`, when it exists, else the spec as last committed).
 * `--bump major|minor|patch`: override the bump the report asks for.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportMarkdown, reportSummary, type ChangeReport } from '../generator/diff/report.js';
import { specModel } from '../generator/generate.js';
import { buildChangeReport } from './lib/change-report.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkgDir = join(root, 'generated');
type Bump = 'major' | 'minor' | 'patch';

export function nextVersion(version: string, bump: Bump): string {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version);
  if (!m) throw new Error(`generated/package.json has version ${JSON.stringify(version)}, which is not x.y.z`);
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** The CHANGELOG.md section of one release: the report's Markdown under the version's heading. */
export function changelogSection(version: string, report: ChangeReport): string {
  const body = reportMarkdown(report).replace(/^# API change report\n\n/, '').replace(/^## /gm, '### ');
  return `## ${version}\n\n${body.trimEnd()}\n`;
}

export function withSection(changelog: string, section: string): string {
  const [head, ...rest] = changelog.split(/\n(?=## )/);
  const intro = head!.replace(/No release yet\.\n?$/, '').trimEnd();
  return `${intro}\n\n${section}${rest.length ? `\n${rest.join('\n')}` : ''}`.replace(/\n*$/, '\n');
}

function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function defaultBase(version: string): string {
  const tag = `im-server-sdk@${version}`;
  const r = spawnSync('git', ['rev-parse', '-q', '--verify', `refs/tags/${tag}`], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? tag : 'HEAD';
}

function main(): number {
  const dryRun = process.argv.includes('--dry-run');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const specText = readFileSync(join(root, 'spec/openapi.yaml'), 'utf8');
  const head = specModel(specText, 'spec/openapi.yaml', JSON.parse(readFileSync(join(root, 'spec/extensions.schema.json'), 'utf8')));
  const report = buildChangeReport(root, head, arg('--base') ?? defaultBase(pkg.version));
  if ('error' in report) {
    console.error(`release: ${report.error}; pass --base <ref|file>`);
    return 1;
  }
  const forced = arg('--bump') as Bump | undefined;
  if (forced && !['major', 'minor', 'patch'].includes(forced)) throw new Error(`--bump takes major, minor or patch, not ${forced}`);
  const bump = forced ?? (report.bump === 'none' ? undefined : report.bump);
  console.log(reportSummary(report));
  if (!bump) {
    console.log(`release: nothing to release (no API change since ${report.base}); pass --bump patch to release anyway`);
    return dryRun ? 0 : 1;
  }
  const version = nextVersion(pkg.version, bump);
  console.log(`release: im-server-sdk ${pkg.version} → ${version} (${bump}${forced ? ', as asked' : ', from the change report'})`);

  if (!dryRun) {
    pkg.version = version;
    writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const changelogPath = join(pkgDir, 'CHANGELOG.md');
    const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '# Changelog\n';
    writeFileSync(changelogPath, withSection(changelog, changelogSection(version, report)));
    // package.json is the template's: regenerate so the version and changelog stand as generate writes them.
    execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/generate.ts')], { cwd: root, stdio: 'inherit' });
  }
  // The file list as npm would pack it: prepack builds from clean and runs publint and attw.
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: pkgDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (packed.status !== 0) {
    console.error(`release: npm pack refused the package:\n${packed.stderr}`);
    return 1;
  }
  const [info] = JSON.parse(packed.stdout);
  const files: string[] = info.files.map((f: { path: string }) => f.path).sort();
  console.log(`release: ${info.name}@${dryRun ? version : info.version} would pack ${files.length} files, ${(info.unpackedSize / 1024 / 1024).toFixed(2)} MB unpacked:`);
  const dirs = new Map<string, number>();
  for (const f of files) dirs.set(f.split('/').slice(0, 2).join('/'), (dirs.get(f.split('/').slice(0, 2).join('/')) ?? 0) + 1);
  for (const [d, n] of dirs) console.log(`  ${d}${n > 1 ? `  (${n} files)` : ''}`);
  console.log(dryRun
    ? 'release: dry run, nothing written. Run `npm run release` to write the version and CHANGELOG.md.'
    : `release: written. Next: commit, \`git tag im-server-sdk@${version}\`, then \`npm publish\` in generated/.`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main());
