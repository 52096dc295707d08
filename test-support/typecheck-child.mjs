// `tsc -p <project>` for several projects in one Node process (test-support/typecheck.ts runs it),
// with one difference, so that a consumer test pays for checking its own code and the package
// under test, not third-party declarations that are the same in every run: the TypeScript lib
// files and declaration files of packages other than the one under test (@types/node,
// @opentelemetry/api) are parsed, bound and used for types, but not checked themselves (as
// skipLibCheck would do for them alone). Their diagnostics would name no file of ours; an error
// our declarations cause is reported in our file. Everything else is what tsc reports: config and
// option errors, syntax errors of every file, global errors, semantic errors of the checked files,
// and emit (with its errors) when the project does not say noEmit.
//
//   node test-support/typecheck-child.mjs --package im-server-sdk <tsconfig.json>…
//   → stdout: JSON [{ project, status, output }]; status 0 (no error) or 2 (errors); output as tsc prints it
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const packageAt = args.indexOf('--package');
const underTest = packageAt >= 0 ? args.splice(packageAt, 2)[1] : undefined;

/** A declaration file of another package in node_modules (not the package under test). */
function thirdParty(fileName) {
  const at = fileName.lastIndexOf('/node_modules/');
  if (at < 0) return false;
  const rest = fileName.slice(at + '/node_modules/'.length);
  const name = rest.startsWith('@') ? rest.split('/').slice(0, 2).join('/') : rest.split('/')[0];
  return name !== underTest;
}

function check(configPath) {
  const cwd = dirname(configPath);
  const host = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  };
  const diagnostics = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => diagnostics.push(d),
    },
  );
  if (config) {
    diagnostics.push(...config.errors);
    const program = ts.createProgram({
      rootNames: config.fileNames,
      options: config.options,
      projectReferences: config.projectReferences,
      configFileParsingDiagnostics: config.errors,
    });
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    for (const sf of program.getSourceFiles()) {
      diagnostics.push(...program.getSyntacticDiagnostics(sf));
      if (program.isSourceFileDefaultLibrary(sf) || (sf.isDeclarationFile && thirdParty(sf.fileName))) continue;
      diagnostics.push(...program.getSemanticDiagnostics(sf));
    }
    if (!config.options.noEmit) diagnostics.push(...program.emit().diagnostics);
  }
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return {
    project: configPath,
    status: errors.length ? 2 : 0,
    output: ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), host),
  };
}

process.stdout.write(JSON.stringify(args.map((p) => check(resolve(p)))));
