/**
 * The generator reaches the hand-written runtime only through its contract folder
 * (templates/runtime/contract/: OperationSpec, BODY_PARAM, OPERATION_DEFAULTS, ajv formats, path
 * rules), never into runtime internals (issue 32, hidden coupling).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';

const runtimeDir = join(repoRoot, 'templates/runtime');
const contractDir = join(runtimeDir, 'contract');

function generatorFiles(dir = join(repoRoot, 'generator')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? generatorFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier of a file: static imports, re-exports, `import()` and `import('…')` types. */
function specifiersOf(text: string): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `file: specifier` for each import of a runtime module outside contract/. */
function reachesIntoRuntime(path: string, text: string): string[] {
  return specifiersOf(text)
    .filter((s) => s.startsWith('.'))
    .filter((s) => {
      const target = resolve(dirname(path), s);
      return target.startsWith(runtimeDir + '/') && !target.startsWith(contractDir + '/');
    })
    .map((s) => `${relative(repoRoot, path)}: ${s}`);
}

describe('generator → runtime coupling', () => {
  it('no generator file imports anything under templates/runtime except contract/', () => {
    const files = generatorFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap((path) => reachesIntoRuntime(path, readFileSync(path, 'utf8')))).toEqual([]);
  });

  it('and the check finds each kind of reach when it is there', () => {
    const at = join(repoRoot, 'generator/emit/planted.ts');
    const planted = [
      "import { x } from '../../templates/runtime/internal/ajv-formats.js';",
      "export { y } from '../../templates/runtime/operation.js';",
      "const z = await import('../../templates/runtime/core/lean-core.js');",
      "type W = import('../../templates/runtime/internal/http-attempt.js').ResponseHeaders;",
    ];
    for (const line of planted) expect(reachesIntoRuntime(at, line), line).toHaveLength(1);
    expect(
      reachesIntoRuntime(at, "import { PATH_SEGMENT_PATTERN } from '../../templates/runtime/contract/path-rules.js';"),
    ).toEqual([]);
  });
});
