/** Emits `src/types/<namespace>.ts`: the params and result types of each operation. */
import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ApiModel, FieldModel, OperationModel } from '../model.js';
import { propertyKey } from '../names.js';
import { isHiddenIn } from '../transform/views.js';
import { propertyDoc } from '../transform/jsdoc.js';
import { typeContextOf, typeOf, type TypeContext } from './schema-to-ts.js';
import { doNotEditHeader, renderSource } from './source-file.js';

export const namespaceTypesFile = (namespace: string) => `src/types/${namespace}.ts`;

export const paramsTypeName = (op: OperationModel) => `${op.typeStem}Params`;
export const resultTypeName = (op: OperationModel) => (op.pagination ? `${op.typeStem}Page` : `${op.typeStem}Result`);
export const itemTypeName = (op: OperationModel) => `${op.typeStem}Item`;

function fieldDoc(field: FieldModel, where: string): string {
  const parts = [field.description, `(${where})`, field.assumed ? `Assumed: ${field.assumed}.` : undefined];
  return propertyDoc(field.schema, parts.filter(Boolean).join(' '));
}

function paramsMembers(op: OperationModel, ctx: TypeContext): string[] {
  const members: string[] = [];
  for (const p of op.pathParams) members.push(`${fieldDoc(p, 'path')}${propertyKey(p.name)}: ${typeOf(p.schema, ctx)};`);
  for (const q of op.queryParams) members.push(`${fieldDoc(q, 'query')}${propertyKey(q.name)}${q.required ? '' : '?'}: ${typeOf(q.schema, ctx)};`);
  if (!op.body?.union) members.push(...bodyMembers(op.body?.fields ?? [], !!op.body?.open, ctx));
  return members;
}

/** `typeFor`: a field's type written by the caller (the discriminator of a union body). */
function bodyMembers(fields: readonly FieldModel[], open: boolean, ctx: TypeContext, typeFor: (f: FieldModel) => string | undefined = () => undefined): string[] {
  const members = fields
    .filter((f) => !isHiddenIn(f.schema, 'write', ctx.components))
    .map((f) => `${fieldDoc(f, 'body')}${propertyKey(f.name)}${f.required ? '' : '?'}: ${typeFor(f) ?? typeOf(f.schema, ctx)};`);
  if (open) members.push('/** Fields the service accepts that the spec does not show (an open body). */\n[key: string]: unknown;');
  return members;
}

/** The params type: one flat object, or (a union body) the path/query fields & one branch each. */
function paramsType(op: OperationModel, ctx: TypeContext): string {
  const members = paramsMembers(op, ctx);
  const common = `{\n${members.join('\n')}\n}`;
  const union = op.body?.union;
  if (!union) return common;
  const p = union.discriminator?.propertyName;
  const branches = union.variants.map((v) => {
    // the discriminator property typed as the value(s) selecting this branch, so the union narrows
    const members = bodyMembers(v.fields, v.open, ctx, (f) => (f.name === p && v.values ? v.values.map((x) => JSON.stringify(x)).join(' | ') : undefined));
    return `{\n${members.join('\n')}\n}`;
  });
  return members.length ? `${common} & (${branches.join(' | ')})` : branches.join(' | ');
}

export function emitNamespaceTypes(model: ApiModel): Map<string, string> {
  const files = new Map<string, string>();
  for (const ns of model.namespaces) {
    const used = new Set<string>();
    const ctx: TypeContext = typeContextOf(model, (n) => (used.add(n), n), 'read');
    const write: TypeContext = { ...ctx, view: 'write' };
    const statements: (string | StatementStructures)[] = [];
    for (const op of ns.operations) {
      statements.push({
        kind: StructureKind.TypeAlias,
        name: paramsTypeName(op),
        isExported: true,
        docs: [`Params of \`${op.id}\`: path, query and body fields under their wire names.`],
        type: paramsType(op, write),
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
