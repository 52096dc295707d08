/** Emits `src/types/<namespace>.ts`: the params and result types of each operation. */
import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ApiModel, BodyModel, FieldModel, JsonSchema, OperationModel, ResponseKind } from '../model.js';
import { isHiddenIn } from '../transform/views.js';
import { propertyDoc } from '../transform/jsdoc.js';
import { typeContextOf, typeOf, type TypeContext } from '../transform/schema-to-ts.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { withoutMarkSentences } from './mark-text.js';
import { doc, docJoin, fileStem, jsDocs, propertyKey, stringLiteral, type DocText } from './spec-text.js';

export const namespaceTypesFile = (namespace: string) => `src/types/${fileStem(namespace)}.ts`;

export const paramsTypeName = (op: OperationModel) => `${op.typeStem}Params`;
export const resultTypeName = (op: OperationModel) => (op.pagination ? `${op.typeStem}Page` : `${op.typeStem}Result`);
export const itemTypeName = (op: OperationModel) => `${op.typeStem}Item`;

/** Field doc: description, location, assumption; `@deprecated` and `@default` as JSDoc tags. */
function fieldDoc(field: FieldModel, where: DocText | string): string {
  const description =
    typeof field.description === 'string' && typeof field.assumed === 'string'
      ? withoutMarkSentences(field.description, [field.assumed])
      : field.description;
  const text = docJoin(
    [
      ...(description ? [String(description)] : []),
      doc`(${where})`,
      ...(typeof field.assumed === 'string' ? [doc`Assumed: ${field.assumed.trim().replace(/[.!?]$/, '')}.`] : []),
    ],
    ' ',
  );
  const schema = typeof field.schema === 'object' ? field.schema : {};
  // a parameter's own `deprecated` (beside its schema) and its schema's `default` both show
  return propertyDoc(
    {
      ...schema,
      ...(field.deprecated ? { deprecated: true } : {}),
      ...(field.default !== undefined ? { default: field.default } : {}),
    },
    text,
  );
}

/** Runtime types the params and result types use. */
const RUNTIME_TYPES: Record<string, string> = {
  BinaryInput: '../internal/request-body.js',
  FileInput: '../internal/request-body.js',
  BinaryResponse: '../core/binary-response.js',
};

function member(f: FieldModel, where: DocText | string, type: string, optional = !f.required): string {
  return `${fieldDoc(f, where)}${propertyKey(f.name)}${optional ? '?' : ''}: ${type};`;
}

function bodyFieldType(body: BodyModel, f: FieldModel, ctx: TypeContext, runtime: Set<string>): string {
  if (body.kind === 'binary') return runtime.add('BinaryInput'), 'BinaryInput';
  if (f.file === 'one') return runtime.add('FileInput'), 'FileInput';
  if (f.file === 'many') return runtime.add('FileInput'), 'FileInput[]';
  return typeOf(f.schema, ctx);
}

function paramsMembers(op: OperationModel, body: BodyModel | null, ctx: TypeContext, runtime: Set<string>): string[] {
  const members: string[] = [];
  for (const p of op.pathParams) members.push(member(p, 'path', typeOf(p.schema, ctx), false));
  for (const q of op.queryParams) members.push(member(q, 'query', typeOf(q.schema, ctx)));
  for (const h of op.headerParams) members.push(member(h, 'header', typeOf(h.schema, ctx)));
  for (const c of op.cookieParams) members.push(member(c, 'cookie', typeOf(c.schema, ctx)));
  if (body && !body.union) members.push(...bodyMembers(body, body.fields, body.open, ctx, runtime));
  return members;
}

/** Body members in the write view (readOnly fields left out); `typeFor` overrides a field's type. */
function bodyMembers(
  body: BodyModel,
  fields: readonly FieldModel[],
  open: boolean,
  ctx: TypeContext,
  runtime: Set<string>,
  typeFor: (f: FieldModel) => string | undefined = () => undefined,
): string[] {
  const where = body.kind !== 'json' ? doc`body, ${body.contentType}` : doc`body`;
  const members = fields
    .filter((f) => !isHiddenIn(f.schema, 'write', ctx.components))
    .map((f) => member(f, where, typeFor(f) ?? bodyFieldType(body, f, ctx, runtime)));
  if (open)
    members.push(
      '/** Fields the service accepts that the spec does not show (an open body). */\n[key: string]: unknown;',
    );
  return members;
}

/** The params type for one body media type: one flat object, or (a union body) the common fields & one branch each. */
function paramsType(op: OperationModel, body: BodyModel | null, ctx: TypeContext, runtime: Set<string>): string {
  const members = paramsMembers(op, body, ctx, runtime);
  const common = `{\n${members.join('\n')}\n}`;
  const union = body?.union;
  if (!union) return common;
  const p = union.discriminator?.propertyName;
  const branches = union.variants.map((v) => {
    // the discriminator property typed as the value(s) selecting this branch, so the union narrows
    const branch = bodyMembers(body!, v.fields, v.open, ctx, runtime, (f) =>
      f.name === p && v.values ? v.values.map((x) => stringLiteral(x)).join(' | ') : undefined,
    );
    return `{\n${branch.join('\n')}\n}`;
  });
  return members.length ? `${common} & (${branches.join(' | ')})` : branches.join(' | ');
}

/** `{ status: 201; data: A } | { status: 200; data: B }` when success statuses differ in shape. */
function resultType(op: OperationModel, ctx: TypeContext, runtime: Set<string>): string {
  const one = (kind: ResponseKind, schema: JsonSchema) => {
    if (kind === 'binary') return runtime.add('BinaryResponse'), 'BinaryResponse';
    if (kind === 'text') return 'string';
    if (kind === 'empty') return 'void';
    return typeOf(schema, ctx);
  };
  if (!op.statusResponses) return one(op.responseKind, op.response);
  return op.statusResponses
    .map((r) => `{ status: ${r.status}; data: ${r.kind === 'empty' ? 'undefined' : one(r.kind, r.schema)} }`)
    .join(' | ');
}

/** The type that maps each request media type to its params (operations with several). */
export const paramsByContentTypeName = (op: OperationModel) => `${op.typeStem}ParamsByContentType`;

export function emitNamespaceTypes(model: ApiModel): Map<string, string> {
  const files = new Map<string, string>();
  for (const ns of model.namespaces) {
    const used = new Set<string>();
    const ctx: TypeContext = typeContextOf(model, (n) => (used.add(n), n), 'read');
    const write: TypeContext = { ...ctx, view: 'write' };
    const runtime = new Set<string>();
    const statements: (string | StatementStructures)[] = [];
    for (const op of ns.operations) {
      statements.push(...paramsStatements(op, write, runtime));
      statements.push({
        kind: StructureKind.TypeAlias,
        name: resultTypeName(op),
        isExported: true,
        docs: jsDocs(
          op.statusResponses
            ? doc`Result of \`${op.id}\`: its success statuses answer differently; narrow on \`status\`.`
            : doc`Response body of \`${op.id}\`.`,
        ),
        type: resultType(op, ctx, runtime),
      });
      if (op.pagination) {
        statements.push({
          kind: StructureKind.TypeAlias,
          name: itemTypeName(op),
          isExported: true,
          docs: jsDocs(doc`One item of \`${op.id}\`.`),
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
        docs: jsDocs(
          doc`Params of \`${helper.namespace}.${helper.methodName}\`: those of \`${helper.whenTrue.id}\` and \`${helper.whenFalse.id}\`, and \`${helper.field}\` to pick one.`,
        ),
        type: `Omit<${paramsTypeName(helper.whenTrue)}, ${stringLiteral(helper.field)}> & Omit<${paramsTypeName(helper.whenFalse)}, ${stringLiteral(helper.field)}> & { ${propertyKey(helper.field)}: boolean }`,
      });
    }
    const imports = used.size ? [`import type { ${[...used].sort().join(', ')} } from './schemas.js';`] : [];
    for (const module of [...new Set(Object.values(RUNTIME_TYPES))].sort()) {
      const names = [...runtime].filter((n) => RUNTIME_TYPES[n] === module).sort();
      if (names.length) imports.push(`import type { ${names.join(', ')} } from '${module}';`);
    }
    files.set(namespaceTypesFile(ns.name), doNotEditHeader(model.source) + renderSource([...imports, ...statements]));
  }
  return files;
}

/** The params type of an operation: one per request media type, picked by `C`, when there are several. */
function paramsStatements(op: OperationModel, write: TypeContext, runtime: Set<string>): StatementStructures[] {
  const docs = jsDocs(
    doc`Params of \`${op.id}\`: ${op.headerParams.length || op.cookieParams.length ? 'path, query, header, cookie' : 'path, query'} and body fields under their wire names.`,
  );
  if (op.bodies.length > 1) {
    return [
      {
        kind: StructureKind.TypeAlias,
        name: paramsByContentTypeName(op),
        isExported: true,
        docs: jsDocs(
          doc`Params of \`${op.id}\` for each request body media type (pick one with the \`contentType\` request option; default ${op.bodies[0]!.contentType}).`,
        ),
        type: `{\n${op.bodies.map((b) => `${stringLiteral(b.contentType)}: ${paramsType(op, b, write, runtime)};`).join('\n')}\n}`,
      },
      {
        kind: StructureKind.TypeAlias,
        name: paramsTypeName(op),
        isExported: true,
        typeParameters: [
          {
            name: 'C',
            constraint: `keyof ${paramsByContentTypeName(op)}`,
            default: stringLiteral(op.bodies[0]!.contentType),
          },
        ],
        docs,
        type: `${paramsByContentTypeName(op)}[C]`,
      },
    ];
  }
  return [
    {
      kind: StructureKind.TypeAlias,
      name: paramsTypeName(op),
      isExported: true,
      docs,
      type: paramsType(op, op.body, write, runtime),
    },
  ];
}
