/** Emits `src/types/<namespace>.ts`: the params and result types of each operation. */
import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ApiModel, FieldModel, OperationModel } from '../model.js';
import { propertyKey } from '../names.js';
import { docComment, typeOf, type TypeContext } from './schema-to-ts.js';
import { doNotEditHeader, renderSource } from './source-file.js';

export const namespaceTypesFile = (namespace: string) => `src/types/${namespace}.ts`;

export const paramsTypeName = (op: OperationModel) => `${op.typeStem}Params`;
export const resultTypeName = (op: OperationModel) => (op.pagination ? `${op.typeStem}Page` : `${op.typeStem}Result`);
export const itemTypeName = (op: OperationModel) => `${op.typeStem}Item`;

function fieldDoc(field: FieldModel, where: string): string {
  const parts = [field.description, `(${where})`, field.assumed ? `Assumed: ${field.assumed}.` : undefined];
  return docComment(parts.filter(Boolean).join(' '));
}

function paramsMembers(op: OperationModel, ctx: TypeContext): string[] {
  const members: string[] = [];
  for (const p of op.pathParams) members.push(`${fieldDoc(p, 'path')}${propertyKey(p.name)}: ${typeOf(p.schema, ctx)};`);
  for (const q of op.queryParams) members.push(`${fieldDoc(q, 'query')}${propertyKey(q.name)}${q.required ? '' : '?'}: ${typeOf(q.schema, ctx)};`);
  for (const f of op.body?.fields ?? []) members.push(`${fieldDoc(f, 'body')}${propertyKey(f.name)}${f.required ? '' : '?'}: ${typeOf(f.schema, ctx)};`);
  if (op.body?.open) members.push('/** Fields the service accepts that the spec does not show (an open body). */\n[key: string]: unknown;');
  return members;
}

export function emitNamespaceTypes(model: ApiModel): Map<string, string> {
  const files = new Map<string, string>();
  for (const ns of model.namespaces) {
    const used = new Set<string>();
    const ctx: TypeContext = { refName: (n) => (used.add(n), n) };
    const statements: (string | StatementStructures)[] = [];
    for (const op of ns.operations) {
      statements.push({
        kind: StructureKind.TypeAlias,
        name: paramsTypeName(op),
        isExported: true,
        docs: [`Params of \`${op.id}\`: path, query and body fields under their wire names.`],
        type: `{\n${paramsMembers(op, ctx).join('\n')}\n}`,
      });
      statements.push({
        kind: StructureKind.TypeAlias,
        name: resultTypeName(op),
        isExported: true,
        docs: [`Response body of \`${op.id}\`.`],
        type: typeOf(op.response, ctx),
      });
      if (op.pagination) {
        statements.push({
          kind: StructureKind.TypeAlias,
          name: itemTypeName(op),
          isExported: true,
          docs: [`One item of \`${op.id}\`.`],
          type: typeOf(op.itemSchema, ctx),
        });
      }
    }
    for (const helper of ns.helpers) {
      if (helper.kind !== 'toggle') continue;
      statements.push({
        kind: StructureKind.TypeAlias,
        name: `${helper.typeStem}Params`,
        isExported: true,
        docs: [`Params of \`${helper.namespace}.${helper.methodName}\`: those of \`${helper.whenTrue.id}\` and \`${helper.whenFalse.id}\`, and \`${helper.field}\` to pick one.`],
        type: `Omit<${paramsTypeName(helper.whenTrue)}, ${JSON.stringify(helper.field)}> & Omit<${paramsTypeName(helper.whenFalse)}, ${JSON.stringify(helper.field)}> & { ${helper.field}: boolean }`,
      });
    }
    const imports = used.size ? [`import type { ${[...used].sort().join(', ')} } from './schemas.js';`] : [];
    files.set(namespaceTypesFile(ns.name), doNotEditHeader(model.source) + renderSource([...imports, ...statements]));
  }
  return files;
}
