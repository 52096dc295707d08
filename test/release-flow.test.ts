/**
 * `npm run release` as a maintainer runs it (issue 27), in a copy of the repository with its own
 * history: a base that must exist, a first release, a runtime-only change released as a patch
 * with its files listed, a second run that does not bump again, a change that grows after it
 * was prepared (one section, the version recomputed), the notes file consumed. `--no-pack` leaves
 * out npm pack (prepack has its own tests in release.test.ts).
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { git, repoCopy, runScript } from '../scripts/lib/repo-copy.js';

const P = '/{org_name}/{app_name}';
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm run release', () => {
  it('needs a base, releases runtime changes as a patch, never bumps the same change twice, keeps one section', async () => {
    const dir = repoCopy();
    temps.push(dir);
    const read = (path: string) => readFileSync(join(dir, path), 'utf8');
    const version = () => JSON.parse(read('generated/package.json')).version;
    const release = (...args: string[]) => runScript(dir, 'release.ts', ['--no-pack', ...args]);

    // no tag of the current version: refused, naming what to do
    const untagged = await release();
    expect(untagged.stderr).toContain(
      'release: cannot compare with im-server-sdk@0.1.0: git revision im-server-sdk@0.1.0 does not exist here',
    );
    expect(untagged.stderr).toContain(
      'Tag the commit im-server-sdk@0.1.0 was released from, or pass --base <ref|file|npm:0.1.0>; for a first release, --first.',
    );
    expect(untagged.status).toBe(1);

    const first = await release('--first', '--date', '2025-01-01');
    expect(first.status, first.out).toBe(0);
    expect(read('generated/CHANGELOG.md')).toMatch(
      /## 0\.1\.0 — 2025-01-01\n\n<!-- im-release .* -->\n\nCompared with `nothing \(first release\)`\. Version: 0\.1\.0 → 0\.1\.0 \(first release\)\.\n\nNo API change\.\n/,
    );
    git(dir, 'commit', '-q', '-am', 'release 0.1.0');
    git(dir, 'tag', 'im-server-sdk@0.1.0');

    const nothing = await release();
    expect(nothing.stdout).toContain(
      'release: nothing to release (no API or runtime change since im-server-sdk@0.1.0:spec/openapi.yaml); --bump patch releases anyway',
    );
    expect(nothing.status).toBe(1);
    const asked = await release('--bump', 'patch', '--dry-run');
    expect(asked.stdout).toContain('release: im-server-sdk 0.1.0 → 0.1.1 (patch, as asked)');
    expect(version()).toBe('0.1.0');

    // a runtime-only change (a response cap, say): a patch, its file listed, the User-Agent follows
    appendFileSync(join(dir, 'templates/runtime/core/errors.ts'), '\n// a runtime-only change\n');
    const patch = await release('--date', '2025-01-02');
    expect(patch.stdout).toContain(
      'change report vs im-server-sdk@0.1.0:spec/openapi.yaml (spec rules and type check): no API change, 1 runtime/template file(s) changed → patch version bump',
    );
    expect(patch.stdout).toContain('release: im-server-sdk 0.1.0 → 0.1.1 (patch)');
    expect(patch.status, patch.out).toBe(0);
    expect(version()).toBe('0.1.1');
    expect(read('generated/src/sdk-version.ts')).toContain("SDK_VERSION = '0.1.1'");
    const changelog = read('generated/CHANGELOG.md');
    expect(changelog).toContain('## 0.1.1 — 2025-01-02');
    expect(changelog).toContain(
      '### Runtime and templates\n\nShipped code changed without an API change:\n\n- `templates/runtime/core/errors.ts`\n',
    );

    // the same again: nothing bumps, nothing is written
    const again = await release('--date', '2025-01-03');
    expect(again.stdout).toContain(
      'release: im-server-sdk 0.1.1 is already prepared for this change (its CHANGELOG section is there, not tagged yet): nothing to do.',
    );
    expect(again.status).toBe(0);
    expect([version(), read('generated/CHANGELOG.md')]).toEqual(['0.1.1', changelog]);

    // the change grows before 0.1.1 is tagged: a breaking edit, with a note; one section, recomputed from 0.1.0
    const doc = parse(read('spec/openapi.yaml'));
    delete doc.paths[`${P}/users/{username}/disable`].post;
    writeFileSync(join(dir, 'spec/openapi.yaml'), stringify(doc));
    writeFileSync(join(dir, 'release-notes/next.md'), 'im.users.disable() is gone: disable users in your own store.\n');
    const grown = await release('--date', '2025-01-04');
    expect(grown.stdout).toContain(
      'release: im-server-sdk 0.1.0 → 0.2.0 (minor (breaking before 1.0; --graduate for 1.0.0)); 0.1.1 was prepared and not tagged, its section is written again',
    );
    expect(grown.status, grown.out).toBe(0);
    expect(version()).toBe('0.2.0');
    const written = read('generated/CHANGELOG.md');
    expect(written.match(/^## /gm)).toHaveLength(2);
    expect(written).toMatch(
      /## 0\.2\.0 — 2025-01-04[\s\S]*### Breaking changes\n\n- `im\.users\.disable\(\)` \(POST \/users\/\{username\}\/disable\) was removed\n {2}- Migration: stop calling im\.users\.disable\(\); the service no longer offers POST \/users\/\{username\}\/disable\.\n[\s\S]*### Runtime and templates[\s\S]*### Notes\n\nim\.users\.disable\(\) is gone: disable users in your own store\.\n\n## 0\.1\.0 — 2025-01-01/,
    );
    expect(read('release-notes/next.md')).toMatch(/^<!--[\s\S]*-->\n$/);
    // and once more: the notes are kept from the section, so it is the same release
    const kept = await release('--date', '2025-01-05');
    expect(kept.stdout).toContain('release: im-server-sdk 0.2.0 is already prepared for this change');
  }, 600_000);
});
