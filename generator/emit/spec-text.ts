/**
 * The one way spec text enters generated code (issue 25). A spec edit is data: whatever a
 * contributor writes in a description, a name or an extension value lands inside a comment, a
 * string literal, a checked identifier, a derived file name or a JSON value, and never becomes
 * code. Every emitter writes every string that comes from a spec through these functions;
 * test/spec-text.test.ts checks the emitters for the ways around them.
 *
 * | where it lands | call |
 * |---|---|
 * | doc comment (`/** … *\/`) | ``doc`…${specText}…` `` per piece, then `jsDocs(text)` (ts-morph `docs`) or `docComment(text)` |
 * | line comment (`// …`) | `lineComment(text)` |
 * | string literal, any JSON value as code | `stringLiteral(s)`, `jsonLiteral(value)` |
 * | TypeScript literal type, type member key | `literalType(value)`, `propertyKey(name)` |
 * | identifier named by the spec | `specIdentifier(name, where)`: refuses an unsafe one with a located SpecError |
 * | file name | `fileStem(derived)`: names the generator derives only; never a separator or `..` |
 * | Markdown (README, api.md) | `markdownText(s)`, `markdownCode(s)` |
 * | package.json / README templates | `renderTemplate(...)`: Handlebars with the `json`, `md` and `code` helpers only |
 */
import Handlebars from 'handlebars';
import { SpecError } from '../spec-error.js';
import { ENTRY_EXPORTS, RUNTIME_EXPORTS } from '../names.js';

// ── Doc comments ────────────────────────────────────────────────────────────────────────────

/** Characters that end a line for JavaScript or TypeScript's JSDoc reader (not only `\n`). */
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\u0085]/g;
/**
 * Characters that are invisible, reorder the text around them (Trojan Source) or that tools
 * choke on: C0 and C1 controls but tab and newline, DEL, and the bidirectional controls. Shown
 * as `\uXXXX` text, so a reviewer sees them.
 */
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');
const shown = (c: string) => `\\u${hex4(c).toUpperCase()}`;

/** What every doc comment gets as a whole: one kind of line break, no hidden characters, no `*\/`. */
function commentSafe(text: string): string {
  return text.replace(LINE_BREAKS, '\n').replace(HIDDEN, shown).replace(/\*\//g, '*\\/');
}

/**
 * Spec text as doc-comment text: `commentSafe`, and an `@` that TypeScript would read as a tag
 * (after any whitespace or at the start, e.g. `@internal`, which the package build strips with its
 * declaration) written `\@` (Markdown shows `@`). An `@` after a letter, digit or `._+-` (an
 * e-mail address) is left as it is.
 */
export function docText(text: string): string {
  return commentSafe(text).replace(/(?<![A-Za-z0-9_.+-])@/g, '\\@');
}

/** A piece of doc text that is already safe: `doc` leaves it as it is. */
export class DocText {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/**
 * Doc text from the generator's own words and spec values: ``doc`Dedupe key: \`${name}\`.` ``.
 * Every interpolated value is spec text (`docText`), a number, or a `DocText` from another `doc`.
 */
export function doc(strings: TemplateStringsArray, ...values: unknown[]): DocText {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += (value instanceof DocText ? value.text : docText(String(value))) + strings[i + 1]!;
  });
  return new DocText(out);
}

/** Joins doc pieces (`DocText` or spec text) with `separator`. */
export function docJoin(parts: readonly (DocText | string)[], separator: string): DocText {
  return new DocText(parts.map((p) => (p instanceof DocText ? p.text : docText(p))).join(separator));
}

/** A doc piece on one line (a property's description): its line breaks become spaces. */
export function docOneLine(part: DocText | string): DocText {
  return new DocText(docJoin([part], '').text.replace(/\n+/g, ' '));
}

/** ts-morph's `docs` of a declaration: one comment, whole-comment safe (ts-morph escapes nothing). */
export function jsDocs(text: DocText | string): string[] {
  return [commentSafe(String(text))];
}

/**
 * A whole `/** … *\/` block for emitters that write source text themselves: one line when the
 * text is one line, unless `block`; `indent` before each line.
 */
export function docComment(text: DocText | string, options: { indent?: string; block?: boolean } = {}): string {
  const indent = options.indent ?? '';
  const lines = commentSafe(String(text)).split('\n');
  if (lines.length === 1 && !options.block) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`), `${indent} */`].join('\n');
}

/** A `// …` comment: every line break (\n, \r, U+2028, U+2029, U+0085) would end it, so each becomes a space. */
export function lineComment(text: string): string {
  return `// ${text.replace(LINE_BREAKS, ' ').replace(/\n/g, ' ').replace(HIDDEN, shown)}`;
}

// ── Values in code ──────────────────────────────────────────────────────────────────────────

/** Characters JSON leaves raw that a reader of the code should see escaped (line separators, bidi controls). */
const UNSAFE_IN_LITERAL = /[\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A string as a JavaScript/TypeScript string literal (JSON quoting, line separators and bidi controls escaped). */
export function stringLiteral(value: string): string {
  return JSON.stringify(String(value)).replace(UNSAFE_IN_LITERAL, (c) => `\\u${hex4(c)}`);
}

/**
 * A JSON value as a JavaScript expression, laid out as `JSON.stringify` lays it out. A key
 * `__proto__` is written `["__proto__"]` (as a plain key it would set the object's prototype).
 * Anything that is not JSON (a function, a symbol, NaN, a bigint) is a generator bug.
 */
export function jsonLiteral(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'boolean':
      return String(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`jsonLiteral: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : jsonLiteral(v))).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      return `{${entries.map(([k, v]) => `${k === '__proto__' ? `[${stringLiteral(k)}]` : stringLiteral(k)}:${jsonLiteral(v)}`).join(',')}}`;
    }
    default:
      throw new Error(`jsonLiteral: a ${typeof value} is not a JSON value`);
  }
}

/**
 * A JSON value as text for comparing, hashing or searching (cache keys, duplicate detection):
 * never written into generated code (that is `jsonLiteral`).
 */
export function structuralKey(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/** A JSON value as a TypeScript literal type (`"a"`, `1`, `null`, `{"k":1}`). */
export function literalType(value: unknown): string {
  return jsonLiteral(value);
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A spec name as a key of a type member: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENT.test(name) && name !== '__proto__' ? name : stringLiteral(name);
}

// ── Names ───────────────────────────────────────────────────────────────────────────────────

/** Words a declaration may not be named (ECMAScript reserved and strict-mode words, TypeScript's type keywords). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private ' +
    'protected public static yield await any unknown never string number bigint boolean symbol object undefined asserts infer is keyof ' +
    'readonly unique satisfies type declare abstract accessor async constructor get set module namespace require global out arguments eval'
  ).split(' '),
);
/**
 * Names the generated type files use or declare beside the spec's, in the same scope: a schema
 * named like one would shadow it (`Record<string, never>`, `Omit<…>`, `ReadonlySet<string>`) or
 * clash with it (`brand`, the runtime types a params type imports).
 */
export const NAMES_THE_PACKAGE_USES = new Set([
  'Record',
  'Omit',
  'Readonly',
  'ReadonlySet',
  'brand',
  'BinaryInput',
  'FileInput',
  'BinaryResponse',
]);

/** Where a spec name stands, for the refusal: a JSON pointer and, for the callbacks spec, its file. */
export interface SpecPlace {
  pointer: string;
  file?: string;
}

/** A spec name → a safe name in its style: its letters and digits, each word capitalised (`../Evil user` → `EvilUser`). */
function suggestedName(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(joined) ? joined : `Schema${joined}`;
}

/**
 * The TypeScript name of a component schema (issue 26): the name itself when it is a safe
 * identifier, else its letters and digits with each word capitalised (`chat-message` →
 * `ChatMessage`, `2fa.code` → `Schema2faCode`), and `Schema` appended to a reserved word or a name
 * the package uses or its runtime exports (`Record` → `RecordSchema`, `Page` → `PageSchema`). Collisions between the results are resolved by
 * the caller (transform/component-names.ts). Never an unsafe identifier.
 */
export function safeTypeName(name: string): string {
  const taken = (n: string) => RUNTIME_EXPORTS.has(n) || ENTRY_EXPORTS.has(n);
  if (isSafeIdentifier(name) && !taken(name)) return name;
  const candidate = IDENT.test(name) ? name : suggestedName(name);
  return isSafeIdentifier(candidate) && !taken(candidate) ? candidate : `${candidate}Schema`;
}

/**
 * A spec name that becomes a TypeScript identifier (a component schema's type name): returned
 * as it is when it is one, else refused at its place, naming the rule and a fix. A name that only
 * differs by being reserved or used by the package is refused the same way.
 */
export function specIdentifier(name: string, where: SpecPlace, what = 'schema name'): string {
  const problem = !IDENT.test(name)
    ? 'is not a TypeScript identifier (letters, digits, _ and $, not starting with a digit)'
    : RESERVED.has(name)
      ? 'is a reserved word of TypeScript'
      : NAMES_THE_PACKAGE_USES.has(name)
        ? 'is a name the generated package already uses'
        : undefined;
  if (!problem) return name;
  const suggestion = suggestedName(name);
  const fix = `rename it (and every $ref to it), e.g. to ${suggestion === name || RESERVED.has(suggestion) || NAMES_THE_PACKAGE_USES.has(suggestion) ? `${suggestion}Schema` : suggestion}`;
  throw new SpecError(
    where.pointer,
    'unsafe-identifier',
    `${what} ${stringLiteral(name.length > 80 ? `${name.slice(0, 80)}…` : name)} ${problem}: it names a type in the generated code`,
    fix,
    where.file,
  );
}

/** True when `name` passes specIdentifier. */
export function isSafeIdentifier(name: string): boolean {
  return IDENT.test(name) && !RESERVED.has(name) && !NAMES_THE_PACKAGE_USES.has(name);
}

/**
 * A file name stem the generator derives (a namespace, a function name, a shared validator key):
 * letters, digits, `_`, `-` and `.`, not starting with `.`, never `..`. Derived names come from
 * checked identifiers, so anything else is a generator bug, not a spec problem.
 */
export function fileStem(name: string): string {
  if (!/^[A-Za-z0-9_$][A-Za-z0-9_$.-]{0,199}$/.test(name) || name.includes('..'))
    throw new Error(`generator bug: ${stringLiteral(name)} is not a safe file name`);
  return name;
}

// ── Markdown ────────────────────────────────────────────────────────────────────────────────

/** Spec text in Markdown prose or a table cell: HTML characters as entities, `|` escaped, one line. */
export function markdownText(text: string): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(LINE_BREAKS, ' ')
    .replace(/\n/g, ' ')
    .replace(HIDDEN, shown);
}

/** Spec text as a Markdown code span (also in a table cell): fenced by more backticks than it holds, one line. */
export function markdownCode(text: string): string {
  const body = String(text).replace(LINE_BREAKS, ' ').replace(/\n/g, ' ').replace(HIDDEN, shown).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || body.startsWith(' ') || body.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

// ── Templates ───────────────────────────────────────────────────────────────────────────────

/** How a template's values are written: `json` for package.json, `markdown` for README.md. */
export type TemplateFormat = 'json' | 'markdown';
const HELPERS: Record<TemplateFormat, readonly string[]> = { json: ['json'], markdown: ['md', 'code'] };
const BLOCKS = new Set(['each', 'if', 'unless']);

/**
 * Refuses a template that could write a value raw: every `{{…}}` must call one of the format's
 * helpers on one value (`{{json version}}`, `{{md reason}}`, `{{code path}}`); blocks are
 * `#each`/`#if`/`#unless` only; no `{{{…}}}`, partials or sub-expressions. A template bug, not a spec one.
 */
export function checkTemplate(name: string, template: string, format: TemplateFormat): void {
  const refuse = (what: string, loc?: { start: { line: number } }) => {
    throw new Error(
      `templates/package/${name}${loc ? `:${loc.start.line}` : ''}: ${what}; write every value as ${HELPERS[format].map((h) => `{{${h} value}}`).join(' or ')}`,
    );
  };
  const walk = (node: any): void => {
    if (!node || typeof node !== 'object') return;
    switch (node.type) {
      case 'Program':
        return node.body.forEach(walk);
      case 'ContentStatement':
      case 'CommentStatement':
        return;
      case 'MustacheStatement': {
        const helper = node.path?.original;
        if (!node.escaped) refuse(`{{{${helper}}}} writes a value raw`, node.loc);
        if (
          !HELPERS[format].includes(helper) ||
          node.params.length !== 1 ||
          node.params[0].type !== 'PathExpression' ||
          node.hash
        ) {
          refuse(`{{${helper}${node.params.length ? ' …' : ''}}} does not go through a ${format} helper`, node.loc);
        }
        return;
      }
      case 'BlockStatement':
        if (!BLOCKS.has(node.path?.original) || node.params.some((p: any) => p.type !== 'PathExpression'))
          refuse(`{{#${node.path?.original}}} is not one of ${[...BLOCKS].join(', ')}`, node.loc);
        walk(node.program);
        walk(node.inverse);
        return;
      default:
        refuse(`a ${node.type} is not allowed`, node.loc);
    }
  };
  walk(Handlebars.parse(template));
}

/** Renders a package template: checked by `checkTemplate`, strict (a missing value throws), values through the helpers only. */
export function renderTemplate(name: string, template: string, data: object, format: TemplateFormat): string {
  checkTemplate(name, template, format);
  const hb = Handlebars.create();
  hb.registerHelper('json', (value: unknown) => new hb.SafeString(jsonLiteral(value)));
  hb.registerHelper('md', (value: unknown) => new hb.SafeString(markdownText(String(value))));
  hb.registerHelper('code', (value: unknown) => new hb.SafeString(markdownCode(String(value))));
  return hb.compile(template, { strict: true })(data);
}
