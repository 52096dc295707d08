/**
 * `npm run demo` (scripts/demo.ts) runs against its own Prism mock with no credentials or
 * network, prints each step, stops the mock and exits 0.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';

function runDemo(timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/demo.ts'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`demo still running after ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it('runs the example against a local mock and exits 0', async () => {
    const { code, stdout, stderr } = await runDemo(90_000);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/Mock listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/POST \/acme\/chat\/token → 200/);
    expect(stdout.match(/\/token → /g)).toHaveLength(1); // one exchange, then the cached token
    expect(stdout).toMatch(/POST \/acme\/chat\/users → 200/);
    expect(stdout).toMatch(/POST \/acme\/chat\/messages → 200 \(client_msg_id \S+\)/);
    expect(stdout).toMatch(/walked 1 page\(s\)/); // the spec's example page ends the walk (next_cursor: null)
    expect(stdout).toMatch(/ValidationError: Invalid params for users\.get; nothing was sent: \/username/);
    expect(stdout).toMatch(/requests sent for it: 0/);
    expect(stdout).toMatch(/Mock stopped\./);
  }, 120_000);
});
