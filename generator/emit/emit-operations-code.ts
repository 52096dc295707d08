/**
 * Emits the code that wires operations to the runtime, one file of each kind per namespace:
 * `src/funcs/<ns>.ts` (standalone functions over the core client, tree-shakeable) and
 * `src/resources/<ns>.ts` (the namespace class on ImClient, one line per method).
 */
import { Scope, StructureKind, type FunctionDeclarationStructure, type MethodDeclarationStructure, type StatementStructures } from 'ts-morph';
import type { ApiModel, OperationModel } from '../model.js';
import { operationConstName } from './emit-operation-table.js';
import { itemTypeName, paramsTypeName, resultTypeName } from './emit-namespace-types.js';
import { operationDocs } from './operation-docs.js';
import { doNotEditHeader, renderSource } from './source-file.js';

export const funcsFile = (namespace: string) => `src/funcs/${namespace}.ts`;
export const resourceFile = (namespace: string) => `src/resources/${namespace}.ts`;

function returnType(op: OperationModel): string {
  return op.pagination ? `PagePromise<${resultTypeName(op)}, ${itemTypeName(op)}>` : `ApiPromise<${resultTypeName(op)}>`;
}

function paramsParameter(op: OperationModel) {
  return { name: 'params', type: paramsTypeName(op), hasQuestionToken: !op.paramsRequired };
}

function typeImports(op: OperationModel): string[] {
  return [paramsTypeName(op), resultTypeName(op), ...(op.pagination ? [itemTypeName(op)] : [])];
}

function runtimeImports(ops: OperationModel[], core: string): string[] {
  const lines = [`import type { ImCore } from '${core}/core/client.js';`, `import type { RequestOptions } from '${core}/core/options.js';`];
  if (ops.some((o) => !o.pagination)) lines.push(`import type { ApiPromise } from '${core}/core/api-promise.js';`);
  if (ops.some((o) => o.pagination)) lines.push(`import type { PagePromise } from '${core}/core/pagination.js';`);
  return lines;
}

export function emitOperationsCode(model: ApiModel): Map<string, string> {
  const files = new Map<string, string>();
  for (const ns of model.namespaces) {
    const types = ns.operations.flatMap(typeImports);
    const funcs: FunctionDeclarationStructure[] = ns.operations.map((op) => ({
      kind: StructureKind.Function,
      name: op.funcName,
      isExported: true,
      docs: [operationDocs(op)],
      parameters: [{ name: 'client', type: 'ImCore' }, paramsParameter(op), { name: 'options', type: 'RequestOptions', hasQuestionToken: true }],
      returnType: returnType(op),
      statements: [`return client.${op.pagination ? 'list' : 'request'}(${operationConstName(op)}, params, options);`],
    }));
    files.set(funcsFile(ns.name), doNotEditHeader(model.source) + renderSource([
      ...runtimeImports(ns.operations, '..'),
      `import { ${ns.operations.map(operationConstName).join(', ')} } from '../operations.js';`,
      `import type { ${types.join(', ')} } from '../types/${ns.name}.js';`,
      ...funcs,
    ]));

    const methods: MethodDeclarationStructure[] = ns.operations.map((op) => ({
      kind: StructureKind.Method,
      name: op.methodName,
      docs: [operationDocs(op)],
      parameters: [paramsParameter(op), { name: 'options', type: 'RequestOptions', hasQuestionToken: true }],
      returnType: returnType(op),
      statements: [`return ${op.funcName}(this.client, params, options);`],
    }));
    const statements: (string | StatementStructures)[] = [
      ...runtimeImports(ns.operations, '..'),
      `import { ${ns.operations.map((o) => o.funcName).join(', ')} } from '../funcs/${ns.name}.js';`,
      `import type { ${types.join(', ')} } from '../types/${ns.name}.js';`,
      {
        kind: StructureKind.Class,
        name: ns.className,
        isExported: true,
        docs: [`The \`${ns.name}.*\` operations. Reach them as \`client.${ns.name}\`.`],
        ctors: [{ parameters: [{ name: 'client', type: 'ImCore', isReadonly: true, scope: Scope.Private }] }],
        methods,
      },
    ];
    files.set(resourceFile(ns.name), doNotEditHeader(model.source) + renderSource(statements));
  }
  return files;
}
