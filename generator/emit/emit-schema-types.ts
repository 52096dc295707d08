/** Emits `src/types/schemas.ts`: one exported type per component schema. */
import { StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { ApiModel, JsonSchema } from '../model.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { typeOf } from './schema-to-ts.js';

export const SCHEMA_TYPES_FILE = 'src/types/schemas.ts';

export function schemaDocs(schema: JsonSchema): string | undefined {
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description);
  const sentence = (text: string) => text.trim().replace(/\.?$/, '.');
  if (schema['x-assumed']) parts.push(`Assumed: ${sentence(schema['x-assumed'])}`);
  if (schema['x-not-documented']) parts.push(`Not documented by the service: ${sentence(schema['x-not-documented'])}`);
  return parts.length ? parts.join('\n\n') : undefined;
}

export function emitSchemaTypes(model: ApiModel): Map<string, string> {
  const statements: TypeAliasDeclarationStructure[] = model.schemas.map(({ name, schema }) => {
    const docs = schemaDocs(schema);
    return {
      kind: StructureKind.TypeAlias,
      name,
      isExported: true,
      type: typeOf(schema, { refName: (n) => n }),
      ...(docs ? { docs: [docs] } : {}),
    };
  });
  return new Map([[SCHEMA_TYPES_FILE, doNotEditHeader(model.source) + renderSource(statements)]]);
}
