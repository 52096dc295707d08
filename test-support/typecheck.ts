/**
 * Type-checks consumer projects the way `tsc -p` does, several in one child process, without
 * re-checking third-party declarations (TypeScript's lib files, @types/node) in each of them: see
 * typecheck-child.mjs for the one difference from tsc. On the 2-core box a consumer project with
 * skipLibCheck false spent ~6 of its ~10 s checking @types/node alone (issue 33, test suite row).
 * Asynchronous: a long synchronous child would starve vitest's worker RPC.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./typecheck-child.mjs', import.meta.url));

export interface TypecheckResult {
  /** Absolute path of the tsconfig file. */
  project: string;
  /** 0: no error; 2: errors (tsc's codes for "reported", with or without emit). */
  status: number;
  /** The diagnostics as tsc prints them without --pretty ('' when there are none). */
  output: string;
}

/** `tsc -p` for each tsconfig path (absolute), in one process; `underTest` is the package whose declarations are checked. */
export function typecheckProjects(projects: string[], underTest = 'im-server-sdk'): Promise<TypecheckResult[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CHILD, '--package', underTest, ...projects],
      { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`type-check of ${projects.join(', ')} failed to run: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as TypecheckResult[]);
      },
    );
  });
}
