/**
 * The formatter of generated code: Biome, with Prettier-like settings. Its native binary formats
 * every file of the 178-operation spec in one run of ~20 ms, where Prettier took ~1.2 s of CPU
 * (bench/RESULTS.md, generation). The binary comes in a per-platform npm package
 * (@biomejs/cli-<os>-<arch>[-musl]); where none is installed, the same Biome version compiled to
 * WebAssembly (@biomejs/wasm-nodejs, slower to start) prints the same bytes
 * (test/format.test.ts), so generated/ never depends on the machine that generated it.
 * Versions are pinned together in package.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Prettier's options as the generator used them (printWidth 100, single quotes, trailing commas)
 * in Biome's words; with them Biome prints what Prettier printed for the whole real spec.
 * `expand: auto` keeps short JSON objects on one line as Prettier does.
 */
export const CONFIG = {
  formatter: { enabled: true, indentStyle: 'space', indentWidth: 2, lineWidth: 100, lineEnding: 'lf', expand: 'auto' },
  javascript: {
    formatter: {
      quoteStyle: 'single',
      trailingCommas: 'all',
      semicolons: 'always',
      arrowParentheses: 'always',
      bracketSpacing: true,
    },
  },
  json: { formatter: { enabled: true } },
  // the operation table of a large spec is several MB; Biome skips files over 1 MiB by default
  files: { maxSize: 1 << 30 },
  linter: { enabled: false },
  assist: { enabled: false },
  vcs: { enabled: false },
} as const;

export type Parser = 'typescript' | 'json';
export interface ToFormat {
  /** Package path, named in errors. */
  path: string;
  text: string;
  parser: Parser;
}
export type BiomeMode = 'native' | 'wasm';

/** The version every path formats with: part of the format cache's key. */
export function biomeVersion(): string {
  return `biome@${(require('@biomejs/biome/package.json') as { version: string }).version}`;
}

let binary: string | null | undefined;

/** The installed native binary for this platform, or undefined. */
export function biomeBinary(): string | undefined {
  if (binary !== undefined) return binary ?? undefined;
  binary = null;
  const exe = process.platform === 'win32' ? 'biome.exe' : 'biome';
  for (const suffix of process.platform === 'linux' ? ['', '-musl'] : ['']) {
    try {
      const path = join(
        dirname(require.resolve(`@biomejs/cli-${process.platform}-${process.arch}${suffix}/package.json`)),
        exe,
      );
      if (existsSync(path)) {
        binary = path;
        break;
      }
    } catch {
      // not installed for this platform: try the next, then the WebAssembly build
    }
  }
  return binary ?? undefined;
}

/** Formats every text, in order; `mode` forces one path (tests compare them). */
export async function formatWithBiome(files: readonly ToFormat[], mode?: BiomeMode): Promise<string[]> {
  if (!files.length) return [];
  const bin = mode === 'wasm' ? undefined : biomeBinary();
  if (bin) return formatNative(bin, files);
  if (mode === 'native')
    throw new Error(`no native Biome binary is installed for ${process.platform}-${process.arch} (@biomejs/cli-*)`);
  return formatWasm(files);
}

/**
 * One run of the binary: the texts written to a temp folder under numbered names (the extension
 * picks the language; package paths would bring Biome's special cases for package.json and
 * tsconfig files), formatted in place, read back, the folder removed.
 */
function formatNative(bin: string, files: readonly ToFormat[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'im-openapi-format-'));
  try {
    const config = join(dir, 'biome.json');
    writeFileSync(config, JSON.stringify(CONFIG));
    mkdirSync(join(dir, 'in'));
    const names = files.map((f, i) => join(dir, 'in', `${i}.${f.parser === 'json' ? 'json' : 'ts'}`));
    files.forEach((f, i) => writeFileSync(names[i]!, f.text));
    try {
      execFileSync(
        bin,
        ['format', '--write', `--config-path=${config}`, '--colors=off', '--max-diagnostics=5', join(dir, 'in')],
        { stdio: 'pipe', maxBuffer: 64 << 20 },
      );
    } catch (error) {
      const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
      // Biome names the numbered copy: name the package file instead.
      let said = `${e.stderr ?? ''}${e.stdout ?? ''}`.trim() || e.message;
      names.forEach((name, i) => (said = said.split(name).join(files[i]!.path)));
      throw formatError(said);
    }
    return names.map((name) => readFileSync(name, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function formatWasm(files: readonly ToFormat[]): Promise<string[]> {
  const { Biome } = await import('@biomejs/js-api/nodejs');
  const biome = new Biome();
  try {
    const { projectKey } = biome.openProject('/');
    biome.applyConfiguration(projectKey, CONFIG as never);
    return files.map(({ path, text, parser }) => {
      const result = biome.formatContent(projectKey, text, { filePath: `file.${parser === 'json' ? 'json' : 'ts'}` });
      const errors = result.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal');
      if (errors.length)
        throw formatError(
          `${path}: ${errors.map((d) => biome.printDiagnostics([d], { filePath: path, fileSource: text })).join('\n')}`,
        );
      return result.content;
    });
  } finally {
    biome.shutdown();
  }
}

function formatError(said: string): Error {
  return new Error(`${biomeVersion()} could not format the generated code (a generator bug): ${said}`);
}
