/**
 * Emits `src/types/webhooks.ts` (only when the spec has `webhooks` or `callbacks`): one exported
 * payload type per webhook / callback operation (build-webhooks.ts), in the read view (what the
 * API sends), beside the REST types; the package index re-exports them. The client never calls
 * them: a receiver types what it parses with them.
 */
import { StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { ApiModel } from '../model.js';
import { typeContextOf, typeOf } from '../transform/schema-to-ts.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { doc, docJoin, jsDocs } from './spec-text.js';

export const WEBHOOK_TYPES_FILE = 'src/types/webhooks.ts';

export function emitWebhookTypes(model: ApiModel): Map<string, string> {
  if (!model.webhooks.length) return new Map();
  const used = new Set<string>();
  const ctx = typeContextOf(model, (n) => (used.add(n), n), 'read');
  const statements: TypeAliasDeclarationStructure[] = model.webhooks.map((w) => ({
    kind: StructureKind.TypeAlias,
    name: w.typeName,
    isExported: true,
    docs: jsDocs(
      docJoin(
        [
          doc`Payload of the ${w.kind} \`${w.name}\` (${w.method}): the JSON body the API sends.`,
          ...(w.description ? [doc`${w.description}`] : []),
        ],
        '\n\n',
      ),
    ),
    type: typeOf(w.schema, ctx),
  }));
  const imports = used.size ? [`import type { ${[...used].sort().join(', ')} } from './schemas.js';`] : [];
  return new Map([[WEBHOOK_TYPES_FILE, doNotEditHeader(model.source) + renderSource([...imports, ...statements])]]);
}
