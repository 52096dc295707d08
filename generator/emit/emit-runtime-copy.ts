/** Copies the hand-written runtime into the package: `templates/runtime/x.ts` → `src/x.ts`. */
import { lineComment } from './spec-text.js';

export const RUNTIME_SOURCE_DIR = 'templates/runtime';

/** The runtime's placeholder of the package version: the generator writes the real one (emit-package-files.ts). */
export const SDK_VERSION_FILE = 'sdk-version.ts';

/**
 * The simulator's delivery numbers: emitted from the callbacks spec (emit-delivery-rules.ts); the
 * template beside the simulator is a checked-in copy of that output, so it is not copied.
 */
export const DELIVERY_RULES_FILE = 'callbacks/simulator/delivery-rules.ts';

/** Test files and test helpers stay behind: the package carries no tests. Nor do the version placeholder and the emitted delivery rules. */
export function isRuntimeFileShipped(relativePath: string): boolean {
  return (
    relativePath.endsWith('.ts') &&
    relativePath !== SDK_VERSION_FILE &&
    relativePath !== DELIVERY_RULES_FILE &&
    !/\.test\.ts$/.test(relativePath) &&
    !/(^|\/)(test-support|__fixtures__)\//.test(relativePath)
  );
}

export function runtimeHeader(relativePath: string): string {
  return `${lineComment(`Copied by im-openapi from ${RUNTIME_SOURCE_DIR}/${relativePath}. Do not edit here: edit the template and run \`npm run generate\`.`)}\n`;
}

/** `runtimeFiles`: path relative to templates/runtime → text. */
export function emitRuntimeCopy(runtimeFiles: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Map<string, string>();
  for (const [relativePath, text] of [...runtimeFiles].sort(([a], [b]) => a.localeCompare(b))) {
    if (isRuntimeFileShipped(relativePath)) files.set(`src/${relativePath}`, runtimeHeader(relativePath) + text);
  }
  return files;
}

/** `examples/x.ts` (package path) → the same text under a header naming templates/examples/x.ts. */
export function emitExamplesCopy(exampleFiles: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of [...exampleFiles].sort(([a], [b]) => a.localeCompare(b))) {
    const source = `templates/${path}`;
    files.set(
      path,
      `${lineComment(`Copied by im-openapi from ${source}. Do not edit here: edit the template and run \`npm run generate\`.`)}\n${text}`,
    );
  }
  return files;
}
