/**
 * YAML parsing with a cache by piece, so that after a one-line edit of the spec only the piece
 * holding that line is parsed again (parsing the whole spec with `yaml` is ~200 ms; the pieces
 * from the cache are JSON).
 *
 * The pieces are the mapping entries of the top three levels (top-level keys, each path, each
 * method or component): a key line at indent 0, 2 or 4 whose parents are such key lines with no
 * value on their own line. A piece is its key line and every deeper line after it; parsed alone
 * (dedented) it is a one-key mapping. Entries whose key line has no value and whose children are
 * pieces are put together from them, in order.
 *
 * Whenever that reading might differ from a whole parse, the whole text is parsed instead (so
 * errors keep their exact messages and positions): anchors/aliases/tags/directives or
 * several documents, tabs for indentation, a piece that does not parse alone or is not a
 * one-key mapping, or a key that appears twice in one mapping.
 */
import { createHash } from 'node:crypto';
import { parse } from 'yaml';
import type { GeneratorCache } from './format.js';

const MAX_PIECE_INDENT = 4;
/** `key:` or `key: value`, key plain or quoted, not a list item or a comment. */
const KEY_LINE = /^( *)(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:[\]{},&*!|>%@`][^#]*?)[ \t]*:(?:[ \t]+(.*))?$/;
/** Anything a piece-by-piece reading would not see across pieces. */
// where a node starts (line start, after `: `, `- `, `[`, `{` or `,`): not a `*` inside a text
const WHOLE_ONLY = /(^ *|: +|- +|[[{,] *)[&*!][^\s]|^(%|---|\.\.\.)|^ *\t|<<\s*:/m;

interface Piece {
  indent: number;
  /** Index of the enclosing piece, or -1 at the top. */
  parent: number;
  lines: string[];
  /** The key line has no value of its own: children may follow. */
  open: boolean;
}

/**
 * Parsed YAML for `text`: piece by piece (through `cache` when given) when it is safe, else
 * `parse(text)`. Without a cache the pieces still pay: `yaml` parses small documents faster than
 * one large one (the 1,780-operation spec of the scale bench: ~1.1 s in pieces, ~1.6 s whole).
 */
export function parseYamlCached(text: string, cache?: GeneratorCache): unknown {
  if (WHOLE_ONLY.test(text)) return parse(text);
  const pieces = split(text);
  return (pieces && assemble(pieces, cache)) ?? parse(text);
}

function split(text: string): Piece[] | undefined {
  const pieces: Piece[] = [];
  // open lines by indent: whether each is a piece's key line with no value (children may be pieces)
  const stack: { indent: number; piece: number; open: boolean }[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart();
    if (!trimmed || trimmed.startsWith('#')) {
      // blank lines and comments belong to the piece before them (the file's leading comments to none)
      if (pieces.length) pieces[pieces.length - 1]!.lines.push(line);
      continue;
    }
    const indent = line.length - trimmed.length;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    const key = indent <= MAX_PIECE_INDENT && (!parent || parent.open) ? KEY_LINE.exec(line) : null;
    if (key) {
      const value = key[2]?.trim() ?? '';
      const open = value === '' || value.startsWith('#');
      pieces.push({ indent, parent: parent ? parent.piece : -1, lines: [line], open });
      stack.push({ indent, piece: pieces.length - 1, open });
    } else {
      if (!pieces.length) return undefined;
      pieces[pieces.length - 1]!.lines.push(line);
      stack.push({ indent, piece: -1, open: false });
    }
  }
  return pieces;
}

function assemble(pieces: Piece[], cache: GeneratorCache | undefined): unknown {
  const values: { key: string; value: unknown }[] = [];
  for (const piece of pieces) {
    const text = piece.lines.map((l) => l.slice(Math.min(piece.indent, l.length - l.trimStart().length))).join('\n');
    const cacheKey = cache ? `yaml-piece\0${createHash('sha256').update(text).digest('hex')}` : '';
    const hit = cache?.get(cacheKey);
    let parsed: unknown;
    if (hit !== undefined) parsed = JSON.parse(hit);
    else {
      try {
        // errors throw (the whole parse then reports them); warnings are the whole parse's to give
        parsed = parse(text, { prettyErrors: false, logLevel: 'error' });
      } catch {
        return undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.keys(parsed).length !== 1)
        return undefined;
      cache?.set(cacheKey, JSON.stringify(parsed));
    }
    const [key, value] = Object.entries(parsed as Record<string, unknown>)[0]!;
    values.push({ key, value });
  }
  const root: Record<string, unknown> = {};
  /** The mapping each piece's entry went into, and the mapping made for its children. */
  const targets: Record<string, unknown>[] = [];
  const containers: (Record<string, unknown> | undefined)[] = [];
  // the entries of one mapping start in one column, deeper than their parent's (else YAML refuses it)
  const columns = new Map<number, number>();
  for (const [i, piece] of pieces.entries()) {
    const { key, value } = values[i]!;
    if ((columns.get(piece.parent) ?? piece.indent) !== piece.indent) return undefined;
    columns.set(piece.parent, piece.indent);
    let target = root;
    if (piece.parent >= 0) {
      const p = piece.parent;
      if (!containers[p]) {
        // a key line with no value parses as null: its value is the mapping of its pieces
        if (values[p]!.value !== null) return undefined;
        containers[p] = {};
        targets[p]![values[p]!.key] = containers[p];
      }
      target = containers[p]!;
    }
    if (key === '__proto__' || Object.hasOwn(target, key)) return undefined;
    target[key] = value;
    targets[i] = target;
  }
  return root;
}
