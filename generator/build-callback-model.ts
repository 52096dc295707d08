/**
 * AsyncAPI callbacks document → CallbackModel: the schemas, the named event types (with their
 * ordering-version field and best-effort flag) and the hook types. Pure, deterministic.
 */
import { parse } from 'yaml';
import type { JsonSchema, NamedSchema } from './model.js';
import { SpecError } from './spec-error.js';
import { buildDeliveryRules, type DeliveryRulesModel } from './build-delivery-rules.js';

export interface CallbackEventTypeModel {
  /** e.g. `group.members_added` */
  type: string;
  /** Schema of the event item, e.g. `GroupMembersAddedEvent`. */
  schemaName: string;
  /** Data field marked x-ordering-version, if any. */
  orderingField?: string;
  bestEffort: boolean;
  /** REST call that fetches what truncation dropped (`x-truncated-refetch`): operationId, param → data field. */
  refetch?: { operationId: string; params: Record<string, string> };
}

export interface CallbackModel {
  source: string;
  schemas: NamedSchema[];
  eventTypes: CallbackEventTypeModel[];
  /** Named hook types (the last, open branch of HookType is left out). */
  hookTypes: string[];
  /** Hook type → why its name is assumed (its `x-assumed` in HookType), for the names the seed does not give. */
  assumedHookTypes: Record<string, string>;
  /** Name of the schema every unnamed event type falls into. */
  unknownEventSchema: string;
  /** The delivery numbers (retry table, breaker, limits) the delivery simulator follows. */
  delivery: DeliveryRulesModel;
}

const REF = /^#\/components\/schemas\/(.+)$/;

/** `parsed`: the document already parsed from `text` (generate.ts parses it once, through its cache). */
export function buildCallbackModel(text: string, source = 'spec/callbacks.asyncapi.yaml', parsed?: unknown): CallbackModel {
  const doc = (parsed ?? parse(text)) as any;
  if (typeof doc?.asyncapi !== 'string' || !doc.asyncapi.startsWith('3.')) {
    throw new SpecError('/asyncapi', 'asyncapi-version', `${source}: expected AsyncAPI 3.x, found ${JSON.stringify(doc?.asyncapi)}`);
  }
  const schemas: Record<string, JsonSchema> = doc.components?.schemas ?? {};
  const byRef = (ref: unknown, at: string): [string, JsonSchema] => {
    const m = typeof ref === 'string' ? ref.match(REF) : null;
    const name = m?.[1];
    if (!name || !schemas[name]) throw new SpecError(at, 'unresolved-ref', `${source}: $ref ${String(ref)} does not resolve`);
    return [name, schemas[name]!];
  };
  const item = schemas.EventItem;
  if (!Array.isArray(item?.oneOf)) throw new SpecError('/components/schemas/EventItem', 'event-item', `${source}: EventItem must be a oneOf of event schemas`);
  const eventTypes: CallbackEventTypeModel[] = [];
  let unknownEventSchema: string | undefined;
  for (const [i, branch] of item.oneOf.entries()) {
    const [schemaName, schema] = byRef(branch.$ref, `/components/schemas/EventItem/oneOf/${i}`);
    const type = schema.properties?.type?.const;
    if (typeof type !== 'string') {
      unknownEventSchema = schemaName;
      continue;
    }
    const dataRef = schema.properties?.data?.$ref;
    const data = dataRef ? byRef(dataRef, `/components/schemas/${schemaName}/properties/data`)[1] : {};
    const orderingField = Object.entries<JsonSchema>(data.properties ?? {}).find(([, s]) => s['x-ordering-version'] === true)?.[0];
    const refetch = refetchOf(schema['x-truncated-refetch'], `/components/schemas/${schemaName}/x-truncated-refetch`, source);
    eventTypes.push({ type, schemaName, ...(orderingField ? { orderingField } : {}), bestEffort: schema['x-best-effort'] === true, ...(refetch ? { refetch } : {}) });
  }
  if (!unknownEventSchema) throw new SpecError('/components/schemas/EventItem', 'unknown-event', `${source}: EventItem needs a branch for unknown event types`);
  const hookBranches: JsonSchema[] = (schemas.HookType?.anyOf ?? []).filter((b: JsonSchema) => typeof b.const === 'string');
  const hookTypes = hookBranches.map((b) => b.const as string);
  const assumedHookTypes = Object.fromEntries(hookBranches.filter((b) => typeof b['x-assumed'] === 'string').map((b) => [b.const as string, b['x-assumed'] as string]));
  return {
    source,
    schemas: Object.keys(schemas).sort().map((name) => ({ name, schema: schemas[name]! })),
    eventTypes: eventTypes.sort((a, b) => a.type.localeCompare(b.type)),
    hookTypes,
    assumedHookTypes,
    unknownEventSchema,
    delivery: buildDeliveryRules(doc, source),
  };
}

/** `x-truncated-refetch: { operationId, params: { <param>: <data field> } }`, checked for shape. */
function refetchOf(mark: unknown, at: string, source: string): CallbackEventTypeModel['refetch'] {
  if (mark === undefined) return undefined;
  const m = mark as { operationId?: unknown; params?: unknown };
  const params = m?.params;
  if (typeof m?.operationId !== 'string' || params === null || typeof params !== 'object' || Array.isArray(params) || !Object.values(params).every((v) => typeof v === 'string')) {
    throw new SpecError(at, 'truncated-refetch', `${source}: x-truncated-refetch needs operationId (string) and params (parameter → data field, strings)`);
  }
  return { operationId: m.operationId, params: { ...(params as Record<string, string>) } };
}
