/**
 * `npm ci` needs a lockfile that lists every optional dependency, also the platform builds that
 * this project's registry does not serve (see scripts/lock-unavailable-optionals.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

describe('package-lock.json', () => {
  it('records every optional dependency, so npm ci accepts it on a fresh machine', () => {
    const lock = JSON.parse(readFileSync(`${repoRoot}package-lock.json`, 'utf8'));
    const missing: string[] = [];
    for (const [path, entry] of Object.entries<any>(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        if (dep === 'fsevents') continue; // macOS only, and npm records it when it can
        const nested = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${dep}`])
          missing.push(`${dep} (of ${path || 'the root'})`);
      }
    }
    expect(missing, 'run: node scripts/lock-unavailable-optionals.mjs').toEqual([]);
  });
});
