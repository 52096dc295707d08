/**
 * What the change report compares with: a spec that must resolve, or a loud reason why not.
 *
 * | `--base` | the spec |
 * |---|---|
 * | a file path (or `file:<path>`) | that file |
 * | `npm:<version or dist-tag>` | `openapi.yaml` inside that published im-server-sdk (npm pack, the configured registry) |
 * | `merge-base` / `merge-base:<branch>` | the spec at `git merge-base HEAD <branch>` (default origin/main, else main) |
 * | `auto` (the gate's default) | off main: the merge base with main; on main's tip: the tag of the version in generated/package.json (`im-server-sdk@<version>`: every break since the last release), else HEAD's first parent (what the last merge brought) |
 * | any git revision (tag, branch, sha, `HEAD~1`) | the spec at that commit |
 *
 * A base that does not resolve is an error that names what was tried and how to fix it (a
 * shallow clone, a missing tag, an unreachable registry); the gate never turns it into "skipped".
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { DELIVERY_RULES_FILE, isRuntimeFileShipped } from '../../generator/emit/emit-runtime-copy.js';

export const SPEC_PATH = 'spec/openapi.yaml';
export const PACKAGE_NAME = 'im-server-sdk';
/** The spec a published package carries (generate copies it in; package.json `files` ships it). */
export const PACKAGED_SPEC = 'openapi.yaml';

export interface ResolvedBase {
  text: string;
  label: string;
  /** The commit, when the base is a git revision (runtime changes are counted from it). */
  commit?: string;
  /** Something the reader of the report must know about this base. */
  note?: string;
}

export type BaseResult = ResolvedBase | { error: string };

function git(root: string, args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? r.error?.message ?? '').trim() };
}

/** What kind of clone this is, for error messages: shallow, its depth, tags and branches it has. */
function cloneFacts(root: string): string {
  if (!git(root, ['rev-parse', '--git-dir']).ok) return 'this folder is not a git repository';
  const shallow = git(root, ['rev-parse', '--is-shallow-repository']).out === 'true';
  const depth = git(root, ['rev-list', '--count', 'HEAD']).out;
  const tags = git(root, ['tag', '--list']).out.split('\n').filter(Boolean).length;
  const facts = [
    `${shallow ? 'a shallow clone' : 'a full clone'} with ${depth || '?'} commit(s) reachable from HEAD and ${tags} tag(s)`,
  ];
  if (shallow)
    facts.push(
      'fetch the history first: `git fetch --unshallow --tags origin` (and `git fetch origin main` for the merge base)',
    );
  return facts.join('; ');
}

export function resolveBase(root: string, base: string): BaseResult {
  const file = base.startsWith('file:') ? base.slice(5) : base;
  const path = isAbsolute(file) ? file : join(root, file);
  if (
    base.startsWith('file:') ||
    (existsSync(path) && !git(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]).ok)
  ) {
    return existsSync(path)
      ? { text: readFileSync(path, 'utf8'), label: file }
      : { error: `base file ${file} does not exist` };
  }
  if (base.startsWith('npm:')) return fromRegistry(root, base.slice(4) || 'latest');
  if (base === 'merge-base' || base.startsWith('merge-base:'))
    return fromMergeBase(root, base.slice('merge-base:'.length));
  if (base === 'auto') return auto(root);
  return fromRevision(root, base, base);
}

function fromRevision(root: string, rev: string, label: string): BaseResult {
  const commit = git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  if (!commit.ok) {
    const hint = /^\d+\.\d+\.\d+/.test(rev)
      ? ` (a published version is \`npm:${rev}\`, its tag \`${PACKAGE_NAME}@${rev}\`)`
      : '';
    return { error: `git revision ${rev} does not exist here${hint}: ${cloneFacts(root)}` };
  }
  const spec = spawnSync('git', ['show', `${commit.out}:${SPEC_PATH}`], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (spec.status !== 0)
    return { error: `${rev} (${commit.out.slice(0, 12)}) has no ${SPEC_PATH}: ${(spec.stderr ?? '').split('\n')[0]}` };
  return { text: spec.stdout, label: label === rev ? `${rev}:${SPEC_PATH}` : label, commit: commit.out };
}

function fromMergeBase(root: string, branch: string): BaseResult {
  const candidates = branch ? [branch] : ['origin/main', 'main'];
  const found = candidates.find((b) => git(root, ['rev-parse', '--verify', '--quiet', `${b}^{commit}`]).ok);
  if (!found)
    return {
      error: `no merge base: ${candidates.join(' or ')} is not in this clone (${cloneFacts(root)}); fetch it (\`git fetch origin main\`) or name a base: --base <tag|file|npm:version>`,
    };
  const mb = git(root, ['merge-base', 'HEAD', found]);
  if (!mb.ok || !mb.out) return { error: `HEAD and ${found} have no merge base in this clone (${cloneFacts(root)})` };
  const head = git(root, ['rev-parse', 'HEAD']).out;
  const r = fromRevision(root, mb.out, `merge-base with ${found} (${mb.out.slice(0, 12)})`);
  if ('error' in r || mb.out !== head) return r;
  return {
    ...r,
    note: `HEAD is ${found}'s tip, so the merge base is HEAD and only uncommitted edits are compared (--base ${PACKAGE_NAME}@<version> compares with a release)`,
  };
}

/** The gate's default: see the table above. */
function auto(root: string): BaseResult {
  const mb = fromMergeBase(root, '');
  if ('error' in mb || !mb.note) return mb;
  // HEAD is main's tip: the merge base says nothing; compare with the last release, or the last merge
  let version = '';
  try {
    version = JSON.parse(readFileSync(join(root, 'generated/package.json'), 'utf8')).version;
  } catch {
    // no package yet: no release to compare with
  }
  const tag = `${PACKAGE_NAME}@${version}`;
  if (version && git(root, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]).ok) {
    return {
      ...(fromRevision(root, tag, tag) as ResolvedBase),
      note: `HEAD is main's tip: compared with the last release, ${tag}`,
    };
  }
  const parent = fromRevision(root, 'HEAD^1', 'HEAD^1');
  if ('error' in parent)
    return {
      error: `HEAD is main's tip, there is no tag ${tag} and HEAD has no parent here (${cloneFacts(root)}): name a base, --base <tag|ref|file|npm:version>`,
    };
  return {
    ...parent,
    note: `HEAD is main's tip and ${tag} is not tagged here: compared with HEAD's first parent (what the last commit or merge brought)`,
  };
}

function fromRegistry(_root: string, version: string): BaseResult {
  const dir = mkdtempSync(join(tmpdir(), 'im-base-pkg-'));
  try {
    const r = spawnSync(
      'npm',
      ['pack', `${PACKAGE_NAME}@${version}`, '--json', '--pack-destination', dir, '--loglevel=error'],
      { cwd: dir, encoding: 'utf8', timeout: 120_000 },
    );
    if (r.status !== 0)
      return {
        error: `${PACKAGE_NAME}@${version} could not be fetched from the registry (${process.env.npm_config_registry ?? 'npm config registry'}): ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ')}`,
      };
    const [info] = JSON.parse(r.stdout);
    execFileSync('tar', ['-xzf', join(dir, info.filename), '-C', dir]);
    const spec = join(dir, 'package', PACKAGED_SPEC);
    if (!existsSync(spec))
      return {
        error: `${PACKAGE_NAME}@${info.version} from the registry has no ${PACKAGED_SPEC} (published before packages carried their spec): use its git tag, --base ${PACKAGE_NAME}@${info.version}`,
      };
    return { text: readFileSync(spec, 'utf8'), label: `${PACKAGE_NAME}@${info.version} (registry)` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The default base of a gate: IM_GATE_BASE when set, else `auto`. */
export function gateBase(): string {
  return process.env.IM_GATE_BASE || 'auto';
}

const SHIPPED_SOURCES = ['templates/runtime', 'templates/package', 'spec/callbacks.asyncapi.yaml'];
const shipped = (rel: string) => isRuntimeFileShipped(rel) || rel === DELIVERY_RULES_FILE;

/**
 * Shipped sources changed since a commit (committed or not): the runtime copied into the package
 * (tests and test support left out), the package templates and the callbacks spec. They change
 * the package without any change of the REST spec.
 */
export function runtimeChangesSince(root: string, commit: string): string[] {
  const changed = git(root, ['diff', '--name-only', commit, '--', ...SHIPPED_SOURCES]).out.split('\n');
  const fresh = git(root, ['ls-files', '--others', '--exclude-standard', '--', ...SHIPPED_SOURCES]).out.split('\n');
  return [...new Set([...changed, ...fresh])]
    .filter(Boolean)
    .filter((f) => (f.startsWith('templates/runtime/') ? shipped(f.slice('templates/runtime/'.length)) : true))
    .sort();
}
