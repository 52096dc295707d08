/**
 * A spec file's text → its parsed document, within limits, for the generator (both specs) and
 * the spec lint alike. Nothing here reads a file or a URL: a spec is one document, and a `$ref`
 * that leaves it (another file, a URL) is refused, never followed.
 *
 * Limits (README "Limits on input"), each a SpecError naming the file, the rule and the fix:
 * - size: `DEFAULT_MAX_SPEC_BYTES` (16 MiB, about 48× spec/openapi.yaml), checked before the text
 *   is parsed; `maxSpecBytes` (CLI: `--max-spec-bytes`) changes it;
 * - YAML aliases: at most 100 (the yaml package's guard against alias bombs);
 * - nesting: at most `MAX_SPEC_DEPTH` levels of mappings and lists (the real specs reach 12),
 *   so no walk over the document runs out of stack.
 */
import { parseYamlCached } from './yaml-chunks.js';
import type { GeneratorCache } from './format.js';
import { SpecError, pointerOf, quoted, type SpecProblem } from './spec-error.js';

/** An HTTP header or cookie name: an RFC 9110 token. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** 16 MiB: spec/openapi.yaml is 0.34 MB, the 30× scale bench's spec 9.9 MiB. */
export const DEFAULT_MAX_SPEC_BYTES = 16 * 2 ** 20;
/** Levels of mappings and lists: the real specs reach 12, the construct fixtures 14. */
export const MAX_SPEC_DEPTH = 64;

export interface SpecDocument {
  doc: unknown;
  /** Mappings, lists and scalars in the document (the budget of inlined schemas is a multiple of it). */
  nodes: number;
}

const MIB = 2 ** 20;
const sizeText = (bytes: number) =>
  bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/** Refuses a spec over `maxBytes` before anything reads it further (`bytes`: its size, from the text or the file). */
export function checkSpecSize(bytes: number, file: string, maxBytes: number = DEFAULT_MAX_SPEC_BYTES): void {
  if (bytes <= maxBytes) return;
  throw new SpecError(
    '',
    'spec-too-large',
    `the spec is ${sizeText(bytes)}, over the limit of ${sizeText(maxBytes)} (${maxBytes} bytes)`,
    `a spec this large is likely a mistake; if it is not, raise the limit: npm run generate -- --max-spec-bytes ${Math.ceil(bytes / MIB) * MIB} (and npm run lint:spec -- --max-spec-bytes …)`,
    file,
  );
}

/** The text of one spec file, parsed: size first, then YAML (aliases bounded), then nesting. */
export function readSpecDocument(
  text: string,
  file: string,
  options: { cache?: GeneratorCache | undefined; maxBytes?: number | undefined } = {},
): SpecDocument {
  // UTF-16 length ≤ UTF-8 bytes ≤ 3 × it: the exact count only when it could matter
  const max = options.maxBytes ?? DEFAULT_MAX_SPEC_BYTES;
  if (text.length * 3 > max) checkSpecSize(Buffer.byteLength(text, 'utf8'), file, max);
  let doc: unknown;
  try {
    doc = parseYamlCached(text, options.cache);
  } catch (error) {
    throw yamlError(error, file);
  }
  const nodes = checkDepth(doc, file);
  return { doc, nodes };
}

function yamlError(error: unknown, file: string): SpecError {
  const e = error as { message?: string; linePos?: { line: number; col: number }[] };
  const message = String(e?.message ?? error).split('\n')[0]!;
  const position = e?.linePos?.[0];
  if (error instanceof RangeError || /call stack size/i.test(message)) {
    return located(
      new SpecError(
        '',
        'yaml-too-deep',
        'the YAML nests too deeply to be read',
        `nest at most ${MAX_SPEC_DEPTH} levels; move deep shapes into components and refer to them with $ref`,
        file,
      ),
      position,
    );
  }
  if (/alias count/i.test(message)) {
    return located(
      new SpecError(
        '',
        'yaml-aliases',
        'the YAML uses more than 100 aliases (a resource exhaustion attack looks like this)',
        'write the repeated parts out, or refer to one component with $ref',
        file,
      ),
      position,
    );
  }
  return located(
    new SpecError(
      '',
      'yaml-syntax',
      `not valid YAML: ${message}`,
      'fix the YAML at that line (a YAML-aware editor shows it)',
      file,
    ),
    position,
  );
}

function located(error: SpecError, position: { line: number; col: number } | undefined): SpecError {
  if (position) (error.problems[0] as SpecProblem).position = { line: position.line, col: position.col };
  return error;
}

/** Refuses nesting deeper than MAX_SPEC_DEPTH (an explicit stack: no recursion); returns the node count. */
function checkDepth(doc: unknown, file: string): number {
  let nodes = 0;
  const stack: { node: unknown; depth: number; pointer: string }[] = [{ node: doc, depth: 0, pointer: '' }];
  while (stack.length) {
    const { node, depth, pointer } = stack.pop()!;
    nodes++;
    if (typeof node === 'number' && !Number.isFinite(node)) {
      throw new SpecError(
        pointer,
        'not-json',
        `${node} (YAML .nan or .inf) has no JSON form`,
        'write a finite number, or a string',
        file,
      );
    }
    if (!node || typeof node !== 'object') continue;
    if (depth >= MAX_SPEC_DEPTH) {
      throw new SpecError(
        pointer,
        'too-deep',
        `the document nests more than ${MAX_SPEC_DEPTH} levels of mappings and lists here`,
        'move the inner shapes into components and refer to them with $ref',
        file,
      );
    }
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    for (const [key, value] of entries)
      stack.push({ node: value, depth: depth + 1, pointer: pointer + pointerOf(key) });
  }
  return nodes;
}

/** JSON pointer segments of a local `$ref` (`#/a/b~1c` → ['a', 'b/c']). */
export function refSegments(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Every `$ref` of a document whose value is a string, with its pointer (an explicit stack: no recursion). */
export function refsOf(doc: unknown): { pointer: string; ref: string }[] {
  const refs: { pointer: string; ref: string }[] = [];
  const stack: { node: unknown; pointer: string }[] = [{ node: doc, pointer: '' }];
  while (stack.length) {
    const { node, pointer } = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      const here = pointer + pointerOf(key);
      if (key === '$ref' && !Array.isArray(node) && typeof value === 'string') refs.push({ pointer: here, ref: value });
      else stack.push({ node: value, pointer: here });
    }
  }
  return refs.sort((a, b) => a.pointer.localeCompare(b.pointer));
}

/**
 * Every `$ref` of a document that is not local (`#/…`): another file, a URL, a relative path. The
 * generator and the spec lint refuse them all before any tool could follow one.
 */
export function externalRefs(doc: unknown, file?: string): SpecProblem[] {
  return refsOf(doc)
    .filter(({ ref }) => !ref.startsWith('#'))
    .map(({ pointer, ref }) => ({
      pointer,
      rule: 'external-ref',
      message: `$ref ${quoted(ref, 200)} points outside this document (a file or a URL); the generator and the spec lint read only the spec itself and follow no such reference`,
      hint: 'copy what it points at into components and refer to it as #/components/…',
      ...(file ? { file } : {}),
    }));
}
