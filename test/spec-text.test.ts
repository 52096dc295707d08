/**
 * The one way spec text enters generated code (generator/emit/spec-text.ts, issue 25): each
 * function against the payloads of the fuzz table, judged by TypeScript's own parser and by
 * running the result; and the emitters checked for the ways around the module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  doc,
  docComment,
  docText,
  fileStem,
  jsDocs,
  jsonLiteral,
  lineComment,
  markdownCode,
  markdownText,
  propertyKey,
  renderTemplate,
  specIdentifier,
  stringLiteral,
} from '../generator/emit/spec-text.js';
import { SpecError } from '../generator/spec-error.js';
import { PAYLOADS, SENTINEL } from '../scripts/lib/spec-fuzz.js';
import { repoRoot } from './helpers/seed.js';

const parse = (source: string) => ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
const jsDocsOf = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
/** Transpiles and runs `source` in a function scope: what a module's top level would do. */
function run(source: string): unknown {
  const js = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None },
  }).outputText;
  const scope = { [SENTINEL]: undefined as unknown };
  new Function('globalThis', 'exports', js)(scope, {});
  return scope[SENTINEL];
}

describe('doc comments', () => {
  it.each(PAYLOADS.map((p) => [p.name, p.text]))(
    '%s stays inside one doc comment, with no tag of its own',
    (_name, payload) => {
      const source = `${docComment(doc`Before ${payload} after.`)}\nexport const a = 1;\n`;
      const file = parse(source);
      expect(file.statements).toHaveLength(1);
      const [jsdoc] = jsDocsOf(file.statements[0]!);
      expect(jsdoc).toBeDefined();
      expect(jsdoc!.tags ?? []).toHaveLength(0);
      expect(run(source)).toBeUndefined();
    },
  );

  it("the generator's own tags stay tags, the spec's do not", () => {
    const source = `${docComment(doc`${'a @internal b\n@deprecated'}\n@default ${jsonLiteral('x')}`)}\nexport type A = 1;\n`;
    const [jsdoc] = jsDocsOf(parse(source).statements[0]!);
    expect(jsdoc!.tags!.map((t) => t.tagName.text)).toEqual(['default']);
  });

  it('jsDocs (ts-morph) and docComment make the whole comment safe even around raw text', () => {
    expect(jsDocs('a */ b')).toEqual(['a *\\/ b']);
    expect(docComment('x\u2028y\r\nz')).toBe('/**\n * x\n * y\n * z\n */');
    expect(docText('\u202e\u0007')).toBe('\\u202E\\u0007');
    expect(docText('mail me@example.com, @internal')).toBe('mail me@example.com, \\@internal');
  });

  it.each(PAYLOADS.map((p) => [p.name, p.text]))('%s in a line comment stays on its line', (_name, payload) => {
    const source = `${lineComment(`x ${payload}`)}\nexport const a = 1;\n`;
    expect(parse(source).statements).toHaveLength(1);
    expect(run(source)).toBeUndefined();
  });
});

describe('values in code', () => {
  it.each(PAYLOADS.map((p) => [p.name, p.text]))('%s as a string literal reads back as itself', (_name, payload) => {
    const literal = stringLiteral(payload);
    expect(literal).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(run(`globalThis.${SENTINEL} = ${literal};`)).toBe(payload);
  });

  it('jsonLiteral writes a __proto__ key as an own key, never the prototype', () => {
    const value = { __proto__: { polluted: true }, list: ['a\u2028b', null, 1.5, true], nested: { '*/': '"' } };
    const parsed = JSON.parse(
      '{"__proto__":{"polluted":true},"list":["a\\u2028b",null,1.5,true],"nested":{"*/":"\\""}}',
    );
    const back = run(`globalThis.${SENTINEL} = ${jsonLiteral(parsed)};`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(JSON.stringify(back)).toBe(JSON.stringify(parsed));
    expect(value.list).toHaveLength(4);
    // the layout of JSON.stringify, so the generated files did not change
    expect(jsonLiteral({ a: [1, 'b'], c: { d: null } })).toBe(JSON.stringify({ a: [1, 'b'], c: { d: null } }));
    expect(() => jsonLiteral(Number.NaN)).toThrow();
  });

  it('propertyKey quotes anything that is not a plain identifier, and __proto__', () => {
    expect(propertyKey('username')).toBe('username');
    expect(propertyKey('__proto__')).toBe('"__proto__"');
    for (const p of PAYLOADS) {
      const source = `type T = { ${propertyKey(p.text)}: string };`;
      expect(parse(source).statements, p.name).toHaveLength(1);
    }
  });
});

describe('names', () => {
  it.each(PAYLOADS.filter((p) => p.name !== 'constructor' && p.name !== 'proto').map((p) => [p.name, p.text]))(
    '%s is refused as a schema name, located, with the rule and a fix',
    (_name, payload) => {
      const error = (() => {
        try {
          specIdentifier(payload, { pointer: '/components/schemas/x' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SpecError);
      const problem = (error as SpecError).problems[0]!;
      expect(problem).toMatchObject({ pointer: '/components/schemas/x', rule: 'unsafe-identifier' });
      expect(problem.hint).toMatch(/^rename it/);
    },
  );

  it('reserved words and names the package uses are refused too; ordinary names pass', () => {
    expect(specIdentifier('User', { pointer: '' })).toBe('User');
    expect(specIdentifier('__proto__', { pointer: '' })).toBe('__proto__');
    for (const name of ['constructor', 'string', 'Record', 'brand', 'FileInput'])
      expect(() => specIdentifier(name, { pointer: '' }), name).toThrow(SpecError);
  });

  it('a file name the generator derives never holds a separator or ..', () => {
    expect(fileStem('usersGet')).toBe('usersGet');
    expect(fileStem('User.request')).toBe('User.request');
    for (const bad of ['../x', 'a/b', 'a\\b', '..', '.hidden', '', 'a..b'])
      expect(() => fileStem(bad), bad).toThrow(/not a safe file name/);
  });
});

describe('Markdown and templates', () => {
  it.each(PAYLOADS.map((p) => [p.name, p.text]))(
    '%s in Markdown: no HTML, no table break, one line; a code span closes where it should',
    (_name, payload) => {
      for (const text of [markdownText(payload), markdownCode(payload)]) {
        expect(text).not.toMatch(/(^|[^\\])\|/);
        expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
      }
      expect(markdownText(payload)).not.toMatch(/<[a-z!/]/i);
      // in a code span (CommonMark) `<` is text; the span must end only at its closing fence
      const code = markdownCode(payload);
      const fence = /^`+/.exec(code)![0];
      expect(code.endsWith(fence)).toBe(true);
      expect(code.slice(fence.length, -fence.length)).not.toContain(fence);
    },
  );

  it('a template value that is not written through json/md/code is refused', () => {
    expect(() => checkTemplate('t.hbs', '"version": "{{version}}"', 'json')).toThrow(
      /does not go through a json helper/,
    );
    expect(() => checkTemplate('t.hbs', '{{{version}}}', 'json')).toThrow(/raw/);
    expect(() => checkTemplate('t.hbs', '{{> partial}}', 'markdown')).toThrow(/PartialStatement/);
    expect(() => checkTemplate('t.hbs', '{{json (concat a b)}}', 'json')).toThrow();
    expect(() => checkTemplate('t.hbs', '{{md version}}', 'json')).toThrow();
    for (const name of readdirSync(join(repoRoot, 'templates/package')).filter((n) => n.endsWith('.hbs'))) {
      expect(
        () =>
          checkTemplate(
            name,
            readFileSync(join(repoRoot, 'templates/package', name), 'utf8'),
            name.endsWith('.json.hbs') ? 'json' : 'markdown',
          ),
        name,
      ).not.toThrow();
    }
  });

  it.each(PAYLOADS.map((p) => [p.name, p.text]))('%s as a package.json value adds no key', (_name, payload) => {
    const text = renderTemplate(
      'package.json.hbs',
      readFileSync(join(repoRoot, 'templates/package/package.json.hbs'), 'utf8'),
      {
        version: payload,
        description: payload,
        entryPoints: [{ subpath: payload, types: payload, default: payload }],
        typesVersions: [{ key: payload, types: payload }],
      },
      'json',
    );
    const pkg = JSON.parse(text);
    expect(pkg.version).toBe(payload);
    expect(Object.keys(pkg)).toEqual([
      'name',
      'version',
      'description',
      'license',
      'type',
      'engines',
      'sideEffects',
      'main',
      'types',
      'exports',
      'typesVersions',
      'bin',
      'files',
      'scripts',
      'dependencies',
      'peerDependencies',
      'peerDependenciesMeta',
      'devDependencies',
    ]);
    expect(pkg.scripts).toEqual({ build: 'node scripts/build.mjs', prepack: 'node scripts/prepack.mjs' });
  });
});

// ── The emitters, checked for the ways around the module ───────────────────────────────────

/** Fields of the model that hold spec text: interpolated into a template, they must be escaped. */
const SPEC_TEXT_FIELDS = new Set([
  'description',
  'summary',
  'path',
  'specPath',
  'reason',
  'assumed',
  'field',
  'contentType',
  'idField',
  'versionField',
  'statuses',
  'title',
  'version',
  'hook',
]);
/** spec-text.ts functions: a template that is their argument is escaped by them. */
const ESCAPING_CALLS = new Set([
  'doc',
  'docText',
  'docJoin',
  'docOneLine',
  'jsDocs',
  'docComment',
  'lineComment',
  'stringLiteral',
  'jsonLiteral',
  'literalType',
  'literal',
  'propertyKey',
  'markdownText',
  'markdownCode',
  'withoutMarkSentences',
]);
/** Template values renderTemplate writes through its helpers (emit-package-files.ts builds the data). */
const TEMPLATE_DATA = new Set(['methodPath', 'description', 'userAgentExample', 'when']);
/** Functions that return plain text for template data or the change report (never code): their callers escape it (retry-conditions.ts → README `when` through `md`, diff/surface.ts). */
const PLAIN_TEXT_BUILDERS = new Set(['testsText', 'retryConditionsText']);

/** What in one emitter's source writes spec text another way than through spec-text.ts. */
function waysAround(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const escapedByParent = (node: ts.Node): boolean => {
    for (let p: ts.Node | undefined = node.parent; p && !ts.isBlock(p) && !ts.isSourceFile(p); p = p.parent) {
      if (ts.isTaggedTemplateExpression(p) && ts.isIdentifier(p.tag) && ESCAPING_CALLS.has(p.tag.text)) return true;
      if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && ESCAPING_CALLS.has(p.expression.text)) return true;
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && TEMPLATE_DATA.has(p.name.text)) return true;
    }
    const fn = ts.findAncestor(node, ts.isFunctionDeclaration);
    if (fn?.name && PLAIN_TEXT_BUILDERS.has(fn.name.text)) return true;
    return false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText(file) === 'JSON.stringify')
      at(node, 'JSON.stringify (use stringLiteral / jsonLiteral, or structuralKey to compare)');
    if (ts.isIdentifier(node) && (node.text === 'noEscape' || node.text === 'Handlebars'))
      at(node, `${node.text} (use renderTemplate)`);
    if (ts.isRegularExpressionLiteral(node) && node.text.includes('\\*\\/'))
      at(node, 'escapes */ by hand (use docText / jsDocs / docComment)');
    if (ts.isNewExpression(node) && node.expression.getText(file) === 'DocText') at(node, 'new DocText (use doc`…`)');
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText(file) === 'docs' &&
      ts.isArrayLiteralExpression(node.initializer)
    )
      at(node, 'docs: [...] (use jsDocs(...))');
    if (
      ts.isTemplateExpression(node) &&
      !(ts.isTaggedTemplateExpression(node.parent) && node.parent.tag.getText(file) === 'doc')
    ) {
      const text = node.getText(file);
      if (/\/\*\*(?:(?!\*\/)[\s\S])*\$\{/.test(text))
        at(node, 'a doc comment built with ${…} (use docComment(doc`…`))');
      if (/\/\/[^\n`]*\$\{/.test(text.replace(/https?:\/\//g, '')))
        at(node, 'a line comment built with ${…} (use lineComment)');
      for (const span of node.templateSpans) {
        const e = span.expression;
        const field = ts.isPropertyAccessExpression(e) ? e.name.text : undefined;
        if (field && SPEC_TEXT_FIELDS.has(field) && !escapedByParent(node))
          at(span, `\${${e.getText(file)}} written raw (spec text: go through spec-text.ts)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('no emitter writes spec text another way', () => {
  const dir = join(repoRoot, 'generator/emit');
  const emitters = [
    ...readdirSync(dir)
      .filter((n) => n.endsWith('.ts') && n !== 'spec-text.ts')
      .map((n) => `generator/emit/${n}`),
    'generator/transform/jsdoc.ts',
    'generator/transform/schema-to-ts.ts',
  ];

  it('every emitter goes through spec-text.ts', () => {
    const found = emitters.flatMap((path) => waysAround(path, readFileSync(join(repoRoot, path), 'utf8')));
    expect(found).toEqual([]);
    expect(emitters.length).toBeGreaterThan(15);
  });

  it('and the check finds each way around when it is there', () => {
    const planted = [
      'const a = `return ${JSON.stringify(op.field)};`;',
      'hb.compile(t, { noEscape: true });',
      "const c = text.replace(/\\*\\//g, '*\\\\/');",
      'const d = { docs: [`Params of ${op.id}`] };',
      'const e = `/** ${op.id} */`;',
      'const f = `// from ${op.id}\\nexport const x = 1;`;',
      'const g = `Sets ${h.description}`;',
      'const h = new DocText(raw);',
    ];
    const found = waysAround('planted.ts', planted.join('\n'));
    expect(found.map((f) => Number(f.split(':')[1]))).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(
      waysAround(
        'ok.ts',
        'const ok = doc`Sets ${h.description}`; const ok2 = markdownCode(`${op.method} ${op.path}`);',
      ),
    ).toEqual([]);
  });
});
