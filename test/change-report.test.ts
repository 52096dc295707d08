/**
 * The change report (issue 15): two models of the spec (as committed and as edited) compared by
 * written rules. Edits are made to temp copies of the real spec, as a maintainer would make them.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { changeReport, reportMarkdown } from '../generator/diff/report.js';
import { specModel } from '../generator/generate.js';
import { readTree } from '../generator/read-inputs.js';
import { git, repoCopy, runScript } from '../scripts/lib/repo-copy.js';
import { repoRoot } from './helpers/seed.js';

const specText = readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8');
const baseModel = specModel(specText, 'spec/openapi.yaml');
const P = '/{org_name}/{app_name}';

function reportAfter(edit: (doc: any) => void) {
  const doc = parse(specText);
  edit(doc);
  return changeReport(baseModel, specModel(stringify(doc), 'spec/openapi.yaml'), 'base');
}

describe('change report rules', () => {
  it('no edit: no change, no bump', () => {
    const r = reportAfter(() => {});
    expect(r.changes).toEqual([]);
    expect(r.bump).toBe('none');
  });

  it('a rename is breaking and names the old and the new name', () => {
    const r = reportAfter((d) => (d.paths[`${P}/users/{username}`].get.operationId = 'users.fetch'));
    const c = r.changes.find((x) => x.kind === 'operation-renamed');
    expect(c).toMatchObject({ class: 'breaking', operation: 'users.get' });
    expect(c!.message).toContain('im.users.get() was renamed to im.users.fetch()');
    expect(c!.message).toContain('UsersGetParams and UsersGetResult are now UsersFetchParams and UsersFetchResult');
    expect(c!.migration).toContain('call im.users.fetch() where you called im.users.get()');
    expect(r.bump).toBe('major');
    expect(r.changes.some((x) => x.kind === 'operation-added' || x.kind === 'operation-removed')).toBe(false);
  });

  it('a delete is breaking and names the operation', () => {
    const r = reportAfter((d) => delete d.paths[`${P}/users/{username}/disable`].post);
    expect(r.changes).toEqual([
      expect.objectContaining({ class: 'breaking', kind: 'operation-removed', operation: 'users.disable' }),
    ]);
  });

  it('an added optional field is an addition (minor); an added required field is breaking', () => {
    const optional = reportAfter(
      (d) =>
        (d.paths[`${P}/users`].post.requestBody.content['application/json'].schema.properties.nickname_2 = {
          type: 'string',
        }),
    );
    expect(optional.changes).toEqual([
      expect.objectContaining({
        class: 'addition',
        kind: 'param-added-optional',
        operation: 'users.create',
        field: 'nickname_2',
      }),
    ]);
    expect(optional.bump).toBe('minor');
    const required = reportAfter((d) => {
      const schema = d.paths[`${P}/users`].post.requestBody.content['application/json'].schema;
      schema.properties.region = { type: 'string' };
      schema.required.push('region');
    });
    expect(required.changes).toEqual([
      expect.objectContaining({ class: 'breaking', kind: 'param-added-required', field: 'region' }),
    ]);
  });

  it('a tightened params constraint is breaking (minLength added), a loosened one is not', () => {
    const tight = reportAfter(
      (d) => (d.components.schemas.Username = { ...d.components.schemas.Username, maxLength: 8 }),
    );
    expect(tight.changes.length).toBeGreaterThan(0);
    expect(tight.changes.every((c) => c.class === 'breaking' && c.kind === 'param-constraint-tightened')).toBe(true);
    expect(tight.changes[0]!.message).toMatch(/maxLength (none|\d+) → 8/);
    const loose = reportAfter((d) => {
      const s = d.components.schemas.Username;
      for (const k of ['maxLength', 'pattern', 'minLength']) delete s[k];
    });
    expect(loose.changes.length).toBeGreaterThan(0);
    expect(loose.changes.every((c) => c.class === 'non-breaking' && c.kind === 'param-constraint-loosened')).toBe(true);
  });

  it('a retry class getting less safe (I → N) is breaking; safer (I → Q) is not', () => {
    const worse = reportAfter((d) => (d.paths[`${P}/users/{username}/disable`].post['x-retry-class'] = 'N'));
    expect(worse.changes).toEqual([
      expect.objectContaining({ class: 'breaking', kind: 'retry-class-changed', operation: 'users.disable' }),
    ]);
    expect(worse.changes[0]!.message).toContain('retry class I → N');
    const safer = reportAfter((d) => (d.paths[`${P}/users/{username}/disable`].post['x-retry-class'] = 'Q'));
    expect(safer.changes).toEqual([expect.objectContaining({ class: 'non-breaking', kind: 'retry-class-changed' })]);
    expect(safer.bump).toBe('patch');
  });

  it('a result field removed from a shared schema is breaking for every operation that returns it', () => {
    const returning = baseModel.operations
      .filter((op) => op.response.$ref === '#/components/schemas/CountResult')
      .map((op) => op.id);
    expect(returning.length).toBeGreaterThan(1);
    const r = reportAfter((d) => delete d.components.schemas.CountResult.properties.count);
    const hits = r.changes.filter((c) => c.kind === 'result-removed' && c.field === 'count');
    expect(hits.map((c) => c.operation).sort()).toEqual(returning.sort());
    expect(hits.every((c) => c.class === 'breaking')).toBe(true);
  });

  it('the Markdown report groups by class', () => {
    const r = reportAfter((d) => {
      delete d.paths[`${P}/users/{username}/disable`].post;
      d.paths[`${P}/users`].post.requestBody.content['application/json'].schema.properties.nickname_2 = {
        type: 'string',
      };
    });
    const md = reportMarkdown(r);
    expect(md).toMatch(
      /## Breaking changes \(1\)\n\n- `operation-removed` im\.users\.disable\(\) \(POST \/users\/\{username\}\/disable\) was removed\n {2}Migration: stop calling im\.users\.disable\(\)/,
    );
    expect(md).toMatch(
      /## Additions \(1\)\n\n- `param-added-optional` im\.users\.create\(\): optional UsersCreateParams\.nickname_2 \(string\) was added/,
    );
  });
});

describe('the type check on the real spec', () => {
  const runtimeFiles = readTree(join(repoRoot, 'templates/runtime'));
  const typed = (edit: (doc: any) => void) => {
    const doc = parse(specText);
    edit(doc);
    return changeReport(baseModel, specModel(stringify(doc), 'spec/openapi.yaml'), 'base', { types: { runtimeFiles } });
  };

  it('finds nothing where only docs changed, though every declaration file differs (no false alarm for the gate)', () => {
    const r = typed((d) => {
      for (const s of Object.values<any>(d.components.schemas)) s.description = `${s.description ?? ''} (edited)`;
    });
    expect(r.typeCheck).toBe('done');
    expect(r.changes).toEqual([]);
  }, 120_000);

  it('sees what the spec rules cannot: an exported schema renamed breaks `import type` of it', () => {
    const r = typed((d) => {
      d.components.schemas.CountResultRenamed = d.components.schemas.CountResult;
      delete d.components.schemas.CountResult;
      d.paths = JSON.parse(
        JSON.stringify(d.paths).replaceAll(
          '#/components/schemas/CountResult"',
          '#/components/schemas/CountResultRenamed"',
        ),
      );
    });
    expect(r.changes.filter((c) => c.class === 'breaking').map((c) => [c.kind, c.typeName])).toEqual([
      ['type-export-removed', 'CountResult'],
    ]);
    expect(r.changes.find((c) => c.kind === 'type-export-removed')!.message).toBe(
      'the exported type CountResult was removed: `import type { CountResult }` no longer compiles',
    );
  }, 120_000);
});

describe('npm run generate prints it and --fail-on breaking exits non-zero', () => {
  it('against a base that had one more operation: summary names it, report files written, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'im-base-'));
    const doc = parse(specText);
    doc.paths[`${P}/users/{username}/archive`] = {
      parameters: doc.paths[`${P}/users/{username}/disable`].parameters,
      post: { ...doc.paths[`${P}/users/{username}/disable`].post, operationId: 'users.archive' },
    };
    writeFileSync(join(dir, 'base.yaml'), stringify(doc));
    // as `npm run generate` runs it (scripts/generate.mjs), awaited: the worker is not blocked meanwhile
    const r = await runScript(repoRoot, 'generate.ts', [
      '--check',
      '--base',
      join(dir, 'base.yaml'),
      '--fail-on',
      'breaking',
    ]);
    rmSync(dir, { recursive: true, force: true });
    expect(r.stdout).toMatch(
      /change report vs .*base\.yaml \(spec rules and type check\): 1 breaking, 0 addition\(s\), 0 non-breaking → major version bump/,
    );
    expect(r.stdout).toContain('breaking: im.users.archive() (POST /users/{username}/archive) was removed');
    expect(r.stderr).toContain('--fail-on breaking: FAILED');
    expect(r.status).toBe(1);
    const json = JSON.parse(readFileSync(join(repoRoot, 'dist-artifacts/change-report/report.json'), 'utf8'));
    expect(json.changes[0]).toMatchObject({ kind: 'operation-removed', operation: 'users.archive' });
  }, 120_000);
});

describe('the gate cannot pass by accident (issue 27)', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
  /** A repository copy on branch feature with users.disable deleted from the spec and committed. */
  function featureWithCommittedEdit(): string {
    const dir = repoCopy();
    temps.push(dir);
    git(dir, 'checkout', '-q', '-b', 'feature');
    const doc = parse(readFileSync(join(dir, 'spec/openapi.yaml'), 'utf8'));
    delete doc.paths[`${P}/users/{username}/disable`].post;
    writeFileSync(join(dir, 'spec/openapi.yaml'), stringify(doc));
    git(dir, 'commit', '-q', '-am', 'drop users.disable');
    return dir;
  }

  it('a committed breaking edit fails the gate: its default base is the merge base with main, not HEAD', async () => {
    const dir = featureWithCommittedEdit();
    const gate = await runScript(dir, 'generate.ts', ['--fail-on', 'breaking']);
    expect(gate.stdout).toMatch(
      /change report vs merge-base with main \([0-9a-f]{12}\) \(spec rules and type check\): 1 breaking/,
    );
    expect(gate.stdout).toContain('breaking: im.users.disable() (POST /users/{username}/disable) was removed');
    expect(gate.stderr).toMatch(
      /--fail-on breaking: FAILED vs merge-base with main .*: 1 breaking change\(s\).*name each SDK call \(im\.users\.disable\(\)\) with a migration note in release-notes\/next\.md/,
    );
    expect(gate.status).toBe(1);
    // what the gate compared with before: HEAD holds the edit, so nothing shows
    const head = await runScript(dir, 'generate.ts', ['--check', '--base', 'HEAD', '--fail-on', 'breaking']);
    expect(head.stdout).toContain('no API change');
    // meant: the notes name the call, and the gate passes saying so
    writeFileSync(
      join(dir, 'release-notes/next.md'),
      'im.users.disable() is gone: the service dropped it; disable users in your own store instead.\n',
    );
    const noted = await runScript(dir, 'generate.ts', ['--check', '--fail-on', 'breaking']);
    expect(noted.stdout).toContain(
      'accepted (named in release-notes/next.md): im.users.disable() (POST /users/{username}/disable) was removed',
    );
    expect(noted.stdout).toMatch(
      /--fail-on breaking: passed vs merge-base with main .*: 1 breaking change\(s\), each named in release-notes\/next\.md/,
    );
    expect(noted.status, noted.out).toBe(0);
  }, 300_000);

  it('on main itself (CI runs on the submitted main): compared with the last release tag, else with what the last merge brought', async () => {
    const dir = repoCopy();
    temps.push(dir);
    const doc = parse(readFileSync(join(dir, 'spec/openapi.yaml'), 'utf8'));
    delete doc.paths[`${P}/users/{username}/disable`].post;
    writeFileSync(join(dir, 'spec/openapi.yaml'), stringify(doc));
    git(dir, 'commit', '-q', '-am', 'drop users.disable, on main');
    const parent = await runScript(dir, 'generate.ts', ['--fail-on', 'breaking']);
    expect(parent.stdout).toContain(
      "change report: note: HEAD is main's tip and im-server-sdk@0.1.0 is not tagged here: compared with HEAD's first parent (what the last commit or merge brought)",
    );
    expect(parent.stdout).toContain(
      'change report vs HEAD^1:spec/openapi.yaml (spec rules and type check): 1 breaking',
    );
    expect(parent.status).toBe(1);
    git(dir, 'tag', 'im-server-sdk@0.1.0', 'HEAD^1');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'another commit after the edit');
    const tagged = await runScript(dir, 'generate.ts', ['--check', '--fail-on', 'breaking']);
    expect(tagged.stdout).toContain(
      "change report: note: HEAD is main's tip: compared with the last release, im-server-sdk@0.1.0",
    );
    expect(tagged.stdout).toContain(
      'change report vs im-server-sdk@0.1.0:spec/openapi.yaml (spec rules and type check): 1 breaking',
    );
    expect(tagged.status).toBe(1);
  }, 300_000);

  it('a base that does not exist fails loudly (exit 2), with or without --fail-on', async () => {
    const dir = featureWithCommittedEdit();
    const gate = await runScript(dir, 'generate.ts', [
      '--check',
      '--fail-on',
      'breaking',
      '--base',
      'im-server-sdk@9.9.9',
    ]);
    expect(gate.stderr).toContain(
      'change report: cannot compare with --base im-server-sdk@9.9.9: git revision im-server-sdk@9.9.9 does not exist here',
    );
    expect(gate.stderr).toContain('a full clone with 2 commit(s) reachable from HEAD and 0 tag(s)');
    expect(gate.stderr).toContain('--fail-on breaking: FAILED, the gate has nothing to compare with');
    expect(gate.status).toBe(2);
    const named = await runScript(dir, 'generate.ts', ['--check', '--base', 'no-such-branch']);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('git revision no-such-branch does not exist here');
    const file = await runScript(dir, 'generate.ts', [
      '--check',
      '--fail-on',
      'breaking',
      '--base',
      'file:nowhere.yaml',
    ]);
    expect([file.status, file.stderr]).toEqual([2, expect.stringContaining('base file nowhere.yaml does not exist')]);
    // IM_GATE_BASE names the gate's base too, and is held to the same rule
    const env = await runScript(dir, 'generate.ts', ['--check', '--fail-on', 'breaking'], {
      IM_GATE_BASE: 'v0.0.0-missing',
    });
    expect([env.status, env.stderr]).toEqual([2, expect.stringContaining("(the gate's default, from IM_GATE_BASE)")]);
  }, 300_000);

  it('a shallow clone without main fails loudly, naming the fetch that fixes it', async () => {
    const dir = featureWithCommittedEdit();
    const shallow = mkdtempSync(join(tmpdir(), 'im-shallow-'));
    temps.push(shallow);
    git(tmpdir(), 'clone', '-q', '--depth', '1', '--branch', 'feature', `file://${dir}`, shallow);
    symlinkSync(join(repoRoot, 'node_modules'), join(shallow, 'node_modules'), 'dir');
    const gate = await runScript(shallow, 'generate.ts', ['--check', '--fail-on', 'breaking']);
    expect(gate.stderr).toContain(
      'no merge base: origin/main or main is not in this clone (a shallow clone with 1 commit(s) reachable from HEAD and 0 tag(s); fetch the history first: `git fetch --unshallow --tags origin`',
    );
    expect(gate.stderr).toContain('--fail-on breaking: FAILED');
    expect(gate.status).toBe(2);
    // with main fetched but the history still cut off, there is no merge base either
    git(shallow, 'fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main');
    const cut = await runScript(shallow, 'generate.ts', ['--check', '--fail-on', 'breaking']);
    expect([cut.status, cut.stderr]).toEqual([
      2,
      expect.stringContaining('HEAD and origin/main have no merge base in this clone (a shallow clone'),
    ]);
    // the fix the message names
    git(shallow, 'fetch', '-q', '--unshallow', 'origin', 'main:refs/remotes/origin/main');
    const full = await runScript(shallow, 'generate.ts', ['--check', '--fail-on', 'breaking']);
    expect(full.stdout).toMatch(/change report vs merge-base with origin\/main .*: 1 breaking/);
    expect(full.status).toBe(1);
  }, 300_000);

  it('without --fail-on and without git, the report is skipped and says why (nothing gates on it)', async () => {
    const dir = repoCopy({ git: false });
    temps.push(dir);
    const r = await runScript(dir, 'generate.ts', ['--check']);
    expect(r.stdout).toContain(
      'change report: skipped (git revision HEAD does not exist here: this folder is not a git repository)',
    );
    expect(r.status, r.out).toBe(0);
  }, 300_000);
});
