/**
 * Emits `src/operations.ts`: one `OperationSpec` constant per operation (so a bundler keeps only
 * the ones an app calls) and the table of all of them by op name.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { OperationSpec } from '../../templates/runtime/operation.js';
import type { ApiModel, OperationModel } from '../model.js';
import { doNotEditHeader, renderSource } from './source-file.js';

export const OPERATIONS_FILE = 'src/operations.ts';

export function operationConstName(op: OperationModel): string {
  return `${op.funcName}Operation`;
}

/** The runtime's view of one operation: exactly the fields of OperationSpec. */
export function operationSpecOf(op: OperationModel): OperationSpec {
  return {
    id: op.id,
    method: op.method,
    path: op.path,
    ...(op.isTokenExchange ? { isTokenExchange: true } : {}),
    auth: op.auth,
    pathParams: op.pathParams.map((p) => p.name),
    queryParams: op.queryParams.map((p) => p.name),
    body: op.body ? 'object' : 'none',
    bodyFields: op.body ? op.body.fields.map((f) => f.name) : [],
    retryClass: op.retryClass,
    ...(op.retryClassWhen.length ? { retryClassWhen: op.retryClassWhen } : {}),
    ...(op.dedupeKey ? { dedupeKey: op.dedupeKey } : {}),
    ...(op.pagination ? { pagination: op.pagination } : {}),
    ...(op.batchSplit ? { batchSplit: op.batchSplit } : {}),
    successStatuses: op.successStatuses,
  };
}

export function emitOperationTable(model: ApiModel, validatorImport?: (op: OperationModel) => string): Map<string, string> {
  const statements: (string | StatementStructures)[] = [
    `import type { OperationSpec } from './operation.js';`,
  ];
  for (const op of model.operations) {
    const spec = JSON.stringify(operationSpecOf(op));
    const loader = validatorImport ? `, loadValidator: () => import(${JSON.stringify(validatorImport(op))})` : '';
    statements.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [op.isTokenExchange
        ? `${op.id}: ${op.method} ${op.path} (the token exchange: the seed gives it no retry class, so it is never resent after a failure).`
        : `${op.id}: ${op.method} ${op.path} (retry class ${op.retryClass}).`],
      declarations: [{ name: operationConstName(op), type: 'OperationSpec', initializer: `${spec.slice(0, -1)}${loader}}` }],
    });
  }
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every operation by its op name (the spec\'s operationId).'],
    declarations: [{
      name: 'operations',
      initializer: `{ ${model.operations.map((op) => `${JSON.stringify(op.id)}: ${operationConstName(op)}`).join(', ')} } as const`,
    }],
  });
  return new Map([[OPERATIONS_FILE, doNotEditHeader(model.source) + renderSource(statements)]]);
}
