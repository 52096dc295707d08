/**
 * The change report (issue 15): two models of the spec (as committed and as edited) compared by
 * written rules. Edits are made to temp copies of the real spec, as a maintainer would make them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { changeReport, reportMarkdown } from '../generator/diff/report.js';
import { specModel } from '../generator/generate.js';
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
    expect(c!.message).toContain('users.get was renamed to users.fetch');
    expect(r.bump).toBe('major');
    expect(r.changes.some((x) => x.kind === 'operation-added' || x.kind === 'operation-removed')).toBe(false);
  });

  it('a delete is breaking and names the operation', () => {
    const r = reportAfter((d) => delete d.paths[`${P}/users/{username}/disable`].post);
    expect(r.changes).toEqual([expect.objectContaining({ class: 'breaking', kind: 'operation-removed', operation: 'users.disable' })]);
  });

  it('an added optional field is an addition (minor); an added required field is breaking', () => {
    const optional = reportAfter((d) => (d.paths[`${P}/users`].post.requestBody.content['application/json'].schema.properties.nickname_2 = { type: 'string' }));
    expect(optional.changes).toEqual([expect.objectContaining({ class: 'addition', kind: 'param-added-optional', operation: 'users.create', field: 'nickname_2' })]);
    expect(optional.bump).toBe('minor');
    const required = reportAfter((d) => {
      const schema = d.paths[`${P}/users`].post.requestBody.content['application/json'].schema;
      schema.properties.region = { type: 'string' };
      schema.required.push('region');
    });
    expect(required.changes).toEqual([expect.objectContaining({ class: 'breaking', kind: 'param-added-required', field: 'region' })]);
  });

  it('a tightened params constraint is breaking (minLength added), a loosened one is not', () => {
    const tight = reportAfter((d) => (d.components.schemas.Username = { ...d.components.schemas.Username, maxLength: 8 }));
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
    expect(worse.changes).toEqual([expect.objectContaining({ class: 'breaking', kind: 'retry-class-changed', operation: 'users.disable' })]);
    expect(worse.changes[0]!.message).toContain('retry class I → N');
    const safer = reportAfter((d) => (d.paths[`${P}/users/{username}/disable`].post['x-retry-class'] = 'Q'));
    expect(safer.changes).toEqual([expect.objectContaining({ class: 'non-breaking', kind: 'retry-class-changed' })]);
    expect(safer.bump).toBe('patch');
  });

  it('a result field removed from a shared schema is breaking for every operation that returns it', () => {
    const returning = baseModel.operations.filter((op) => op.response.$ref === '#/components/schemas/CountResult').map((op) => op.id);
    expect(returning.length).toBeGreaterThan(1);
    const r = reportAfter((d) => delete d.components.schemas.CountResult.properties.count);
    const hits = r.changes.filter((c) => c.kind === 'result-removed' && c.field === 'count');
    expect(hits.map((c) => c.operation).sort()).toEqual(returning.sort());
    expect(hits.every((c) => c.class === 'breaking')).toBe(true);
  });

  it('the Markdown report groups by class', () => {
    const r = reportAfter((d) => {
      delete d.paths[`${P}/users/{username}/disable`].post;
      d.paths[`${P}/users`].post.requestBody.content['application/json'].schema.properties.nickname_2 = { type: 'string' };
    });
    const md = reportMarkdown(r);
    expect(md).toMatch(/## Breaking changes \(1\)\n\n- `operation-removed` users\.disable/);
    expect(md).toMatch(/## Additions \(1\)\n\n- `param-added-optional` users\.create/);
  });
});

describe('npm run generate prints it and --fail-on breaking exits non-zero', () => {
  it('against a base that had one more operation: summary names it, report files written, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'im-base-'));
    const doc = parse(specText);
    doc.paths[`${P}/users/{username}/archive`] = { parameters: doc.paths[`${P}/users/{username}/disable`].parameters, post: { ...doc.paths[`${P}/users/{username}/disable`].post, operationId: 'users.archive' } };
    writeFileSync(join(dir, 'base.yaml'), stringify(doc));
    const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/generate.ts', '--check', '--base', join(dir, 'base.yaml'), '--fail-on', 'breaking'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    rmSync(dir, { recursive: true, force: true });
    expect(r.stdout).toMatch(/change report vs .*base\.yaml: 1 breaking, 0 addition\(s\), 0 non-breaking → major version bump/);
    expect(r.stdout).toContain('breaking: users.archive (POST /users/{username}/archive) was removed');
    expect(r.stderr).toContain('--fail-on breaking');
    expect(r.status).toBe(1);
    const json = JSON.parse(readFileSync(join(repoRoot, 'dist-artifacts/change-report/report.json'), 'utf8'));
    expect(json.changes[0]).toMatchObject({ kind: 'operation-removed', operation: 'users.archive' });
  }, 120_000);
});
