/**
 * `npx tsx scripts/release-loop.ts [--keep]`: the whole release loop, as a maintainer and a user
 * live it (issue 27), in a copy of the repository with its own history and a local registry
 * (verdaccio 6.8.0, installed on first use into node_modules/.cache/im-openapi/; it listens on
 * 127.0.0.1 only and is stopped at the end):
 *
 * 1. 0.1.0 released (`release --first`), tagged, published; consumer A (`^0.1.0`, strict
 *    TypeScript) installs it and compiles.
 * 2. An addition: the gate passes, `release` makes 0.1.1 (a patch before 1.0), published;
 *    consumer A's `npm update` gets it and still compiles.
 * 3. A breaking change: the gate fails until release-notes/next.md names the call; the report
 *    against the published 0.1.1 (`--base npm:0.1.1`) shows it; `release` makes 0.2.0, published;
 *    consumer A stays on 0.1.1 and compiles; consumer B (`^0.2.0`) does not compile with A's
 *    code, as the report said, and does after the migration line of the CHANGELOG it installed.
 * 4. A prerelease: `release --preid rc` → 0.2.1-rc.0, published under the `rc` dist-tag; consumer
 *    B's `^0.2.0` does not pick it up.
 *
 * Every step checks what it expects and the script exits 1 at the first surprise.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startRegistry } from './lib/local-registry.js';
import { git, repoCopy, TSX } from './lib/repo-copy.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const log = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);

function fail(message: string): never {
  throw new Error(`release loop: ${message}`);
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command, asynchronously (verdaccio answers from this process's children meanwhile). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

async function expectRun(
  what: string,
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  status = 0,
): Promise<Run> {
  const r = await run(cmd, args, cwd, env);
  if (r.status !== status) fail(`${what}: exit ${r.status}, expected ${status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

const STRICT = (repo: string) => ({
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: false,
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    typeRoots: [join(repo, 'node_modules/@types')],
    module: 'node16',
    moduleResolution: 'node16',
  },
  files: ['index.ts'],
});

/** A's code: it reads a user and disables one (users.disable is what release 3 removes). */
const CODE_V1 = `import { ImClient, type UsersGetResult } from 'im-server-sdk';
const im = new ImClient({ baseUrl: 'http://127.0.0.1:9', appKey: 'org#app', clientId: 'id', clientSecret: 'secret' });
export async function nightly(): Promise<void> {
  const user: UsersGetResult = await im.users.get({ username: 'alice' });
  console.log(user.username);
  await im.users.disable({ username: 'alice' });
}
console.log('loaded', typeof im.users.get);
`;
const CODE_MIGRATED = CODE_V1.replace("  await im.users.disable({ username: 'alice' });\n", '');

async function consumer(
  work: string,
  name: string,
  range: string,
  code: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', dependencies: { 'im-server-sdk': range } }, null, 2),
  );
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(STRICT(root)));
  writeFileSync(join(dir, 'index.ts'), code);
  await expectRun(`${name}: npm install`, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir, env);
  return dir;
}

const installed = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'node_modules/im-server-sdk/package.json'), 'utf8')).version as string;
const tsc = (dir: string) =>
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);

async function compiles(dir: string, want: boolean, what: string): Promise<string> {
  const r = await tsc(dir);
  if ((r.status === 0) !== want)
    fail(
      `${what}: tsc ${r.status === 0 ? 'passed' : 'failed'}, expected it to ${want ? 'pass' : 'fail'}\n${r.stdout}${r.stderr}`,
    );
  return r.stdout;
}

function editSpec(repo: string, edit: (doc: any) => void): void {
  const path = join(repo, 'spec/openapi.yaml');
  const doc = parse(readFileSync(path, 'utf8'));
  edit(doc);
  writeFileSync(path, stringify(doc));
}

/** An addition to the spec: a string field on users.create's body (the change releases 2 and 4 make). */
function addUserField(repo: string, name: string): void {
  editSpec(
    repo,
    (d) =>
      (d.paths['/{org_name}/{app_name}/users'].post.requestBody.content['application/json'].schema.properties[name] = {
        type: 'string',
        'x-assumed': 'a release-loop test field',
      }),
  );
}

/** What every step of the loop uses: the temp folders, npm's environment, the repo's scripts, publishing. */
interface Loop {
  work: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  script: (name: string, args: string[], status?: number) => ReturnType<typeof expectRun>;
  publish: (version: string, tag?: string) => Promise<void>;
}

function makeLoop(work: string, registry: { url: string; token: string }): Loop {
  const npmrc = join(work, 'npmrc');
  const host = registry.url.replace(/^http:/, '');
  writeFileSync(npmrc, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  const env = {
    ...process.env,
    npm_config_userconfig: npmrc,
    npm_config_registry: registry.url,
    npm_config_update_notifier: 'false',
    IM_GATE_BASE: '',
  };
  const repo = repoCopy();
  const script = (name: string, args: string[], status = 0) =>
    expectRun(`${name} ${args.join(' ')}`, process.execPath, [TSX, `scripts/${name}`, ...args], repo, env, status);
  const publish = async (version: string, tag?: string) => {
    git(repo, 'commit', '-q', '-am', `release ${version}`);
    git(repo, 'tag', `im-server-sdk@${version}`);
    const r = await expectRun(
      `npm publish ${version}`,
      'npm',
      ['publish', ...(tag ? ['--tag', tag] : [])],
      join(repo, 'generated'),
      env,
    );
    if (!`${r.stdout}${r.stderr}`.includes(`im-server-sdk@${version}`)) fail(`npm publish did not name ${version}`);
    if (/was invalid and removed|auto-corrected/.test(r.stderr))
      fail(`npm publish corrected package.json:\n${r.stderr}`);
    log(`published im-server-sdk@${version}${tag ? ` (dist-tag ${tag})` : ''}`);
  };

  return { work, repo, env, script, publish };
}

/** 1. The first release; consumer A on ^0.1.0 compiles strict and loads the package. */
async function firstRelease({ work, env, script, publish }: Loop): Promise<string> {
  await script('release.ts', ['--first', '--no-pack']);
  await publish('0.1.0');
  const a = await consumer(work, 'consumer-a', '^0.1.0', CODE_V1, env);
  await compiles(a, true, 'consumer A on 0.1.0');
  const ran = await expectRun(
    'consumer A loads the package',
    process.execPath,
    ['--input-type=module', '-e', "import('im-server-sdk').then((m) => console.log(typeof m.ImClient))"],
    a,
    env,
  );
  if (ran.stdout.trim() !== 'function') fail(`the installed package did not load: ${ran.stdout}`);
  log(`consumer A (^0.1.0) installed ${installed(a)}, strict tsc passes, the package loads`);

  return a;
}

/** 2. An addition: a patch before 1.0, reaching consumer A by npm update. */
async function additionIsAPatch({ repo, env, script, publish }: Loop, a: string): Promise<void> {
  addUserField(repo, 'nickname_hint');
  await script('generate.ts', []);
  await script('generate.ts', ['--check', '--fail-on', 'breaking', '--base', 'im-server-sdk@0.1.0']);
  const minor = await script('release.ts', []);
  if (!minor.stdout.includes('im-server-sdk 0.1.0 → 0.1.1 (patch'))
    fail(`release 2 did not make 0.1.1:\n${minor.stdout}`);
  log('release 2 (an addition): 0.1.0 → 0.1.1; npm pack --dry-run passed prepack (stale check, build, publint, attw)');
  await publish('0.1.1');
  await expectRun('consumer A: npm update', 'npm', ['update', '--no-audit', '--no-fund', '--loglevel=error'], a, env);
  if (installed(a) !== '0.1.1') fail(`consumer A has ${installed(a)} after npm update, expected 0.1.1`);
  await compiles(a, true, 'consumer A on 0.1.1');
  log('consumer A npm update → 0.1.1, strict tsc passes');
}

/** 3. A breaking change: the gate, the report against the registry, 0.2.0; A stays, B migrates. */
async function breakingIsAMinor({ work, repo, env, script, publish }: Loop, a: string): Promise<string> {
  editSpec(repo, (d) => delete d.paths['/{org_name}/{app_name}/users/{username}/disable'].post);
  await script('generate.ts', []);
  const gate = await script('generate.ts', ['--check', '--fail-on', 'breaking'], 1);
  if (!gate.stderr.includes('--fail-on breaking: FAILED')) fail(`the gate did not fail:\n${gate.stdout}${gate.stderr}`);
  const fromRegistry = await script('generate.ts', ['--check', '--types', '--base', 'npm:0.1.1']);
  if (
    !/change report vs im-server-sdk@0\.1\.1 \(registry\) \(spec rules and type check\): 1 breaking/.test(
      fromRegistry.stdout,
    )
  )
    fail(`the report against npm:0.1.1 did not show the break:\n${fromRegistry.stdout}`);
  writeFileSync(
    join(repo, 'release-notes/next.md'),
    'im.users.disable() is gone: the service no longer disables users; keep a disabled flag in your own store.\n',
  );
  await script('generate.ts', ['--check', '--fail-on', 'breaking']);
  log(
    'release 3 (breaking): the gate failed until release-notes/next.md named im.users.disable(); --base npm:0.1.1 read the published spec',
  );
  const major = await script('release.ts', []);
  if (!major.stdout.includes('im-server-sdk 0.1.1 → 0.2.0 (minor (breaking before 1.0'))
    fail(`release 3 did not make 0.2.0:\n${major.stdout}`);
  await publish('0.2.0');
  await expectRun('consumer A: npm update', 'npm', ['update', '--no-audit', '--no-fund', '--loglevel=error'], a, env);
  if (installed(a) !== '0.1.1')
    fail(`consumer A (^0.1.0) moved to ${installed(a)}: a breaking 0.2.0 must not reach it`);
  await compiles(a, true, 'consumer A still on 0.1.1');
  const b = await consumer(work, 'consumer-b', '^0.2.0', CODE_V1, env);
  const errors = await compiles(b, false, "consumer B (A's code) on 0.2.0");
  if (!errors.includes("Property 'disable' does not exist")) fail(`consumer B failed for another reason:\n${errors}`);
  const changelog = readFileSync(join(b, 'node_modules/im-server-sdk/CHANGELOG.md'), 'utf8');
  if (
    !changelog.includes('Migration: stop calling im.users.disable()') ||
    !changelog.includes('im.users.disable() is gone')
  )
    fail(`the installed CHANGELOG has no migration line or notes:\n${changelog}`);
  writeFileSync(join(b, 'index.ts'), CODE_MIGRATED);
  await compiles(b, true, 'consumer B after the migration');
  log(
    `consumer A (^0.1.0) stays on ${installed(a)} and compiles; consumer B (^0.2.0) with A's code fails as the report said (${errors.trim().split('\n')[0]}), and compiles after the CHANGELOG's migration line`,
  );

  return b;
}

/** 4. A prerelease channel: 0.2.1-rc.0 under dist-tag rc stays opt-in. */
async function prereleaseStaysOptIn({ work, repo, env, script, publish }: Loop, b: string): Promise<void> {
  addUserField(repo, 'locale_hint');
  await script('generate.ts', []);
  const rc = await script('release.ts', ['--preid', 'rc']);
  if (!rc.stdout.includes('im-server-sdk 0.2.0 → 0.2.1-rc.0')) fail(`the prerelease is not 0.2.1-rc.0:\n${rc.stdout}`);
  await publish('0.2.1-rc.0', 'rc');
  const tags = JSON.parse(
    (await expectRun('npm view dist-tags', 'npm', ['view', 'im-server-sdk', 'dist-tags', '--json'], work, env)).stdout,
  );
  if (tags.latest !== '0.2.0' || tags.rc !== '0.2.1-rc.0') fail(`dist-tags ${JSON.stringify(tags)}`);
  await expectRun('consumer B: npm update', 'npm', ['update', '--no-audit', '--no-fund', '--loglevel=error'], b, env);
  if (installed(b) !== '0.2.0') fail(`consumer B (^0.2.0) took ${installed(b)}: a prerelease must stay opt-in`);
  log(
    `prerelease: 0.2.1-rc.0 under dist-tag rc (dist-tags ${JSON.stringify(tags)}); consumer B (^0.2.0) stays on 0.2.0`,
  );
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'im-loop-'));
  const registry = await startRegistry(work, root, log);
  try {
    const loop = makeLoop(work, registry);
    const a = await firstRelease(loop);
    await additionIsAPatch(loop, a);
    const b = await breakingIsAMinor(loop, a);
    await prereleaseStaysOptIn(loop, b);
    const { repo } = loop;
    log('release loop passed');
    if (process.argv.includes('--keep')) log(`kept: ${work} and ${repo}`);
    else rmSync(repo, { recursive: true, force: true });
  } finally {
    registry.child.kill();
    if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
