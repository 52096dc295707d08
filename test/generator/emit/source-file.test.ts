/**
 * renderSource (generator/emit/source-file.ts) prints ts-morph structures with ts-morph's own
 * printer and skips the parse that createSourceFile adds: the text must be the same.
 */
import { Project, Scope, StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { renderSource } from '../../../generator/emit/source-file.js';

const statements: (string | StatementStructures)[] = [
  '// a raw line\n',
  {
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './x.js',
    namedImports: ['A', { name: 'B', alias: 'C' }],
    isTypeOnly: true,
  },
  {
    kind: StructureKind.TypeAlias,
    name: 'T',
    isExported: true,
    type: '{ a: string; b?: number }',
    docs: ['A type.\n\nTwo paragraphs.'],
  },
  {
    kind: StructureKind.Interface,
    name: 'I',
    isExported: true,
    properties: [{ name: 'x', type: 'string', hasQuestionToken: true, docs: ['x'] }],
  },
  {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    declarations: [{ name: 'v', initializer: "{ a: 1, b: 'two' } as const" }],
  },
  {
    kind: StructureKind.Class,
    name: 'K',
    isExported: true,
    ctors: [{ parameters: [{ name: 'c', type: 'C', scope: Scope.Private, isReadonly: true }] }],
    methods: [
      {
        name: 'm',
        isAsync: true,
        parameters: [{ name: 'p', type: 'T' }],
        returnType: 'Promise<void>',
        statements: ['await this.c.go(p);'],
        docs: ['Does m.'],
      },
    ],
  },
  {
    kind: StructureKind.Function,
    name: 'f',
    isExported: true,
    overloads: [{ parameters: [{ name: 'a', type: 'string' }], returnType: 'string' }],
    parameters: [{ name: 'a', type: 'unknown' }],
    statements: ['return String(a);'],
  },
];

describe('renderSource', () => {
  it('prints what createSourceFile would hold, without parsing it', () => {
    const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
    const expected = project.createSourceFile('/x.ts', { statements }).getFullText();
    expect(renderSource(statements)).toBe(expected);
    expect(expected).toContain('export class K');
  });
});
