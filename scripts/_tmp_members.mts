import ts from 'typescript';
const want = process.argv.slice(2);
const files = ['templates/runtime/callbacks/index.ts', 'templates/runtime/core/index.ts'];
const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true });
const checker = program.getTypeChecker();
for (const sf of program.getSourceFiles()) {
  if (!sf.fileName.includes('templates/runtime')) continue;
  ts.forEachChild(sf, (n) => {
    if ((ts.isInterfaceDeclaration(n)) && want.includes(n.name.text)) {
      const t = checker.getTypeAtLocation(n);
      console.log(`## ${n.name.text} (${sf.fileName.replace(/.*templates\/runtime\//, '')})`);
      for (const p of t.getProperties()) {
        const doc = ts.displayPartsToString(p.getDocumentationComment(checker)).replace(/\s+/g, ' ');
        console.log(`- ${p.name}${(p.flags & ts.SymbolFlags.Optional) ? '?' : ''}: ${doc.slice(0, 230)}`);
      }
    }
  });
}
