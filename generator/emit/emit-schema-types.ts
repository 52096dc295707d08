/**
 * Emits `src/types/schemas.ts`: one exported type per component schema. A plain object schema
 * becomes an interface, so a user who knows a field the seed does not show can add it by
 * declaration merging (`declare module 'im-server-sdk' { interface User { nickname?: string } }`);
 * open objects keep their index signature. Other shapes (unions, intersections, brands, a closed
 * empty object) stay type aliases.
 */
import { StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import { isBranded } from '../extensions/x-ts-brand.js';
import type { ApiModel, JsonSchema } from '../model.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { objectType, typeContextOf, typeOf } from '../transform/schema-to-ts.js';
import { writableName } from '../transform/views.js';
import { withoutMarkSentences } from './mark-text.js';
import { doc, docComment, docJoin, jsDocs, stringLiteral, type DocText } from './spec-text.js';

export const SCHEMA_TYPES_FILE = 'src/types/schemas.ts';

/** The doc of a component schema: its description, `@deprecated`, and its provenance marks as sentences. */
export function schemaDocs(schema: JsonSchema): DocText | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const parts: DocText[] = [];
  const own = [schema['x-assumed'], schema['x-not-documented']].filter((r): r is string => typeof r === 'string');
  const description = typeof schema.description === 'string' ? withoutMarkSentences(schema.description, own) : '';
  if (description) parts.push(doc`${description}`);
  if (schema.deprecated === true) parts.push(doc`@deprecated`);
  const sentence = (text: string) => {
    const t = text.trim();
    return t.endsWith('.') ? t : `${t}.`;
  };
  if (typeof schema['x-assumed'] === 'string' && schema['x-assumed'])
    parts.push(doc`Assumed: ${sentence(schema['x-assumed'])}`);
  if (typeof schema['x-not-documented'] === 'string' && schema['x-not-documented'])
    parts.push(doc`Not documented by the service: ${sentence(schema['x-not-documented'])}`);
  return parts.length ? docJoin(parts, '\n\n') : undefined;
}

/** True when `type` (the schema's read type) is one object literal that an interface can hold. */
function interfaceBody(
  schema: JsonSchema,
  type: string,
  ctx: ReturnType<typeof typeContextOf>,
  branded: boolean,
): boolean {
  return !branded && type.startsWith('{') && type === objectType(schema, ctx);
}

function interfaceText(name: string, body: string, docs: DocText | undefined): string {
  return `${docs ? `${docComment(docs, { block: true })}\n` : ''}export interface ${name} ${body}`;
}

export function emitSchemaTypes(model: ApiModel): Map<string, string> {
  const read = typeContextOf(model, (n) => n, 'read');
  const write = { ...read, view: 'write' as const };
  const statements: (string | TypeAliasDeclarationStructure)[] = model.schemas.flatMap(({ name, schema }) => {
    const docs = schemaDocs(schema);
    const alias = (aliasName: string, type: string, extra?: DocText): TypeAliasDeclarationStructure => {
      const parts = [docs, extra].filter((p): p is DocText => p !== undefined);
      return {
        kind: StructureKind.TypeAlias,
        name: aliasName,
        isExported: true,
        type,
        ...(parts.length ? { docs: jsDocs(docJoin(parts, '\n\n')) } : {}),
      };
    };
    // x-ts-brand: a nominal type, so that nothing else of the same shape (e.g. a token response)
    // is assignable to it; values of it come only from the service's answers.
    const branded = isBranded(schema);
    const brand = branded ? ` & { readonly [brand]: ${stringLiteral(name)} }` : '';
    const type = typeOf(schema, read);
    const out: (string | TypeAliasDeclarationStructure)[] = [
      interfaceBody(schema, type, read, branded) ? interfaceText(name, type, docs) : alias(name, `${type}${brand}`),
    ];
    // the write view, only where it differs (readOnly / writeOnly somewhere inside)
    if (read.writable!.has(name))
      out.push(
        alias(
          writableName(name),
          typeOf(schema, write),
          doc`What the client sends as \`${name}\`: readOnly fields left out, writeOnly fields kept.`,
        ),
      );
    return out;
  });
  const branded = model.schemas.some(({ schema }) => isBranded(schema));
  const brandSymbol = branded
    ? [
        `${docComment('The key of the brand of `x-ts-brand` types: type-only, never a value at run time.')}\ndeclare const brand: unique symbol;`,
      ]
    : [];
  return new Map([[SCHEMA_TYPES_FILE, doNotEditHeader(model.source) + renderSource([...brandSymbol, ...statements])]]);
}
