/**
 * OpenAPI 3.1 `webhooks` and operations' `callbacks` (issue 26): requests the API makes to the
 * caller, read into the model for their payload types (emit-webhook-types.ts), never into the
 * client. What is read: the JSON request body of each operation of each webhook / callback path
 * item. What is not (a located warning each): a path item without such a body, a payload in
 * another media type. Pure.
 */
import { deref, type OpenApiDocument } from './load-spec.js';
import type { GeneratorWarning, JsonSchema, WebhookModel } from './model.js';
import { pascalCase } from './names.js';
import { safeTypeName } from './emit/spec-text.js';
import { pointerOf, quoted } from './spec-error.js';
import { bodyKindOf } from './build-wire.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `taken`: names already exported (component schemas, derived types); a payload name that equals one takes `_2`, `_3`… */
export function buildWebhooks(
  doc: OpenApiDocument,
  operations: readonly { id: string; typeStem: string; specPath: string; method: string }[],
  taken: Set<string>,
  warnings: GeneratorWarning[],
): WebhookModel[] {
  const out: WebhookModel[] = [];
  const read = (kind: WebhookModel['kind'], name: string, stem: string, item: unknown, at: string) => {
    let pathItem: any = item;
    try {
      pathItem = deref(doc, item, at);
    } catch {
      pathItem = undefined;
    }
    if (!isMapping(pathItem))
      return void warnings.push({
        pointer: at,
        rule: 'webhook-skipped',
        message: `${kind} ${quoted(name)} is not a path item: no payload type`,
      });
    for (const method of METHODS.filter((m) => isMapping(pathItem[m]))) {
      const where = `${at}/${method}`;
      const body = deref(doc, pathItem[method].requestBody, `${where}/requestBody`);
      const json = Object.keys(body?.content ?? {}).find((t) => bodyKindOf(t) === 'json');
      if (!json) {
        warnings.push({
          pointer: where,
          rule: 'webhook-skipped',
          message: `${kind} ${quoted(name)} (${method.toUpperCase()}) has no JSON request body${body?.content ? ` (${Object.keys(body.content).join(', ')})` : ''}: no payload type`,
        });
        continue;
      }
      const base = `${safeTypeName(pascalCase(stem.replace(/[^A-Za-z0-9_]+/g, '_')))}${kind === 'webhook' ? 'Webhook' : 'Callback'}${METHODS.filter((m) => isMapping(pathItem[m])).length > 1 ? pascalCase(method) : ''}Payload`;
      let typeName = base;
      for (let n = 2; taken.has(typeName); n++) typeName = `${base}_${n}`;
      taken.add(typeName);
      const schema: JsonSchema = body.content[json].schema ?? {};
      out.push({
        kind,
        name,
        method: method.toUpperCase(),
        pointer: where,
        typeName,
        schema,
        description:
          typeof pathItem[method].description === 'string'
            ? pathItem[method].description
            : typeof pathItem[method].summary === 'string'
              ? pathItem[method].summary
              : '',
      });
    }
  };
  for (const [name, item] of Object.entries<any>(isMapping(doc.webhooks) ? doc.webhooks : {}))
    read('webhook', name, name, item, pointerOf('webhooks', name));
  for (const op of operations) {
    const callbacks = doc.paths?.[op.specPath]?.[op.method.toLowerCase()]?.callbacks;
    for (const [name, raw] of Object.entries<any>(isMapping(callbacks) ? callbacks : {})) {
      const at = pointerOf('paths', op.specPath, op.method.toLowerCase(), 'callbacks', name);
      let callback: any;
      try {
        callback = deref(doc, raw, at);
      } catch {
        callback = undefined;
      }
      for (const [expression, item] of Object.entries<any>(isMapping(callback) ? callback : {}))
        read('callback', `${op.id} ${name}`, `${op.typeStem}_${name}`, item, `${at}${pointerOf(expression)}`);
    }
  }
  return out;
}
