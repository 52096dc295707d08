/**
 * A copy of the repository's working files in a temp folder, as its own git repository (branch
 * main, one commit), with node_modules linked to this one's: for tests that run generate, the
 * gate or release the way a maintainer or CI does, on history they shape themselves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const PARTS = [
  'generator',
  'scripts',
  'spec',
  'templates',
  'release-notes',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'release.config.json',
  '.gitignore',
];

export const TSX = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `git: false`: the files only (no repository). */
export function repoCopy(options: { git?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'im-repo-'));
  for (const part of PARTS)
    if (existsSync(join(repoRoot, part))) cpSync(join(repoRoot, part), join(dir, part), { recursive: true });
  cpSync(join(repoRoot, 'generated'), join(dir, 'generated'), {
    recursive: true,
    filter: (src) => !/[/\\](dist|node_modules|package-lock\.json)$/.test(src),
  });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (options.git !== false) {
    git(dir, 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, '.git/info/exclude'), 'node_modules\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
  }
  return dir;
}

/**
 * `tsx scripts/<script> …args` in `cwd`: status, stdout and stderr. Asynchronous, so a long run
 * does not block the test worker's event loop (vitest's own messages time out otherwise).
 * generate.ts runs as `npm run generate` runs it: scripts/generate.mjs, the generator bundled once
 * (node_modules/.cache, linked from the copy, so every copy with the same generator sources shares
 * the bundle); tsx compiling the generator afresh in each copy cost ~1.3 s CPU a run (issue 33).
 */
export function runScript(
  cwd: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string; out: string }> {
  return new Promise((done) => {
    const command = script === 'generate.ts' ? ['scripts/generate.mjs'] : [TSX, `scripts/${script}`];
    const child = spawn(process.execPath, [...command, ...args], {
      cwd,
      env: { ...process.env, IM_GATE_BASE: '', ...env },
      timeout: 300_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr, out: `${stdout}\n${stderr}` }));
  });
}
