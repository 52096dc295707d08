/**
 * AsyncAPI callbacks document → CallbackModel: the schemas, the named event types (with their
 * ordering-version field and best-effort flag) and the hook types. Pure, deterministic.
 */
import { parse } from 'yaml';
import type { CallbackEventTypeModel, JsonSchema, NamedSchema } from './model.js';
import { EVENT_EXTENSIONS } from './extensions/index.js';
import { SpecError, collectSpecErrors, pointerOf, quoted, type SpecProblem } from './spec-error.js';
import { isSafeIdentifier, specIdentifier } from './emit/spec-text.js';
import { refSegments, refsOf } from './spec-document.js';
import { buildDeliveryRules, type DeliveryRulesModel } from './build-delivery-rules.js';

export type { CallbackEventTypeModel } from './model.js';

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

/** Component schemas the callback entry points (and payloads.ts) name: the spec must define them. */
export const ENTRY_SCHEMAS = ['VerifyBody', 'EventBody', 'HookBody', 'HookAnswer', 'HookType', 'EventType', 'Origin'];

/** Names payloads.ts declares itself: a schema may not take one (besides the hook request types, checked apart). */
export const PAYLOAD_DECLARATIONS = [
  'KnownCallbackEvent',
  'CallbackEventItem',
  'CallbackEventTypeMap',
  'knownEventTypes',
  'eventOrderingFields',
  'eventRefetchOperations',
  'bestEffortEventTypes',
  'knownHookTypes',
  'KnownHookRequest',
  'CallbackHookRequest',
  'CallbackHookTypeMap',
  'CallbackRequestBody',
  'isHookType',
  'isEventType',
  'isKnownEvent',
];

const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `hook.type` → the name of its request type, `MessageBeforeSendHookRequest`: a safe identifier, or refused at the hook's place. */
export function hookRequestTypeName(hook: string, where?: { pointer: string; file: string }): string {
  const name = `${hook
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}HookRequest`;
  if (where && !isSafeIdentifier(name)) {
    throw new SpecError(
      where.pointer,
      'unsafe-identifier',
      `the hook type ${quoted(hook)} would name the type ${quoted(name)}, which is not a safe TypeScript identifier`,
      'write the hook type as dotted snake_case words, e.g. message.before_send',
      where.file,
    );
  }
  return name;
}

/** `parsed`: the document already parsed from `text` (generate.ts parses it once, through its cache). */
export function buildCallbackModel(
  text: string,
  source = 'spec/callbacks.asyncapi.yaml',
  parsed?: unknown,
): CallbackModel {
  const doc = (parsed ?? parse(text)) as any;
  if (!isMapping(doc) || typeof doc.asyncapi !== 'string' || !doc.asyncapi.startsWith('3.')) {
    throw new SpecError(
      '/asyncapi',
      'asyncapi-version',
      `expected AsyncAPI 3.x, found ${quoted(doc?.asyncapi)}`,
      'write asyncapi: 3.0.0',
      source,
    );
  }
  const schemas: Record<string, JsonSchema> = isMapping(doc.components?.schemas) ? doc.components.schemas : {};
  checkCallbackNames(doc, schemas, source);
  const missing = ENTRY_SCHEMAS.filter((name) => !isMapping(schemas[name]));
  if (missing.length) {
    throw new SpecError(
      '/components/schemas',
      'callbacks-schema-missing',
      `the callbacks spec defines no ${missing.join(', ')}: the callback entry points export ${missing.length === 1 ? 'it' : 'them'} by name`,
      `define ${missing.join(', ')} under components.schemas (renaming one renames a public type: keep the name)`,
      source,
    );
  }
  const { eventTypes, unknownEventSchema } = eventTypesOf(schemas, source);
  const { hookTypes, assumedHookTypes } = hookTypesOf(schemas, source);
  return {
    source,
    schemas: Object.keys(schemas)
      .sort()
      .map((name) => ({ name, schema: schemas[name]! })),
    eventTypes: eventTypes.sort((a, b) => a.type.localeCompare(b.type)),
    hookTypes,
    assumedHookTypes,
    unknownEventSchema,
    delivery: buildDeliveryRules(doc, source),
  };
}

/** The component schema a `$ref` names, with its name (refused when it resolves to none). */
function schemaByRef(
  schemas: Record<string, JsonSchema>,
  ref: unknown,
  at: string,
  source: string,
): [string, JsonSchema] {
  const m = typeof ref === 'string' ? ref.match(REF) : null;
  const name = m?.[1];
  if (!name || !isMapping(schemas[name]))
    throw new SpecError(
      at,
      'unresolved-ref',
      `$ref ${quoted(ref)} does not resolve to a schema`,
      'refer to a schema of this file: #/components/schemas/<Name>',
      source,
    );
  return [name, schemas[name]!];
}

/** The event types of EventItem's oneOf (ordering field, best effort, refetch), and its branch for unknown types. */
function eventTypesOf(
  schemas: Record<string, JsonSchema>,
  source: string,
): { eventTypes: CallbackEventTypeModel[]; unknownEventSchema: string } {
  const byRef = (ref: unknown, at: string) => schemaByRef(schemas, ref, at, source);
  const item = schemas.EventItem;
  if (!Array.isArray(item?.oneOf))
    throw new SpecError(
      '/components/schemas/EventItem',
      'event-item',
      'EventItem must be a oneOf of event schemas',
      'write EventItem as oneOf: [$ref to each event schema, …, $ref to the unknown-event schema]',
      source,
    );
  const eventTypes: CallbackEventTypeModel[] = [];
  let unknownEventSchema: string | undefined;
  for (const [i, branch] of (item.oneOf as unknown[]).entries()) {
    const [schemaName, schema] = byRef(
      isMapping(branch) ? branch.$ref : undefined,
      `/components/schemas/EventItem/oneOf/${i}`,
    );
    const type = schema.properties?.type?.const;
    if (typeof type !== 'string') {
      unknownEventSchema = schemaName;
      continue;
    }
    const dataRef = schema.properties?.data?.$ref;
    const data = dataRef ? byRef(dataRef, `/components/schemas/${schemaName}/properties/data`)[1] : {};
    const at = `/components/schemas/${schemaName}`;
    const read = EVENT_EXTENSIONS.map((e) => e.readEvent!({ schema, data, at, source }));
    eventTypes.push({ type, schemaName, ...Object.assign({}, ...read) });
  }
  if (!unknownEventSchema)
    throw new SpecError(
      '/components/schemas/EventItem',
      'unknown-event',
      'EventItem needs a branch for unknown event types',
      'add a $ref to a schema whose type is a plain string (no const) as the last branch',
      source,
    );
  return { eventTypes, unknownEventSchema };
}

/** The hook types of HookType's anyOf (each naming a request type that must be free), and their x-assumed notes. */
function hookTypesOf(
  schemas: Record<string, JsonSchema>,
  source: string,
): { hookTypes: string[]; assumedHookTypes: Record<string, string> } {
  const hookBranches: unknown[] = Array.isArray(schemas.HookType?.anyOf) ? schemas.HookType.anyOf : [];
  const hookTypes: string[] = [];
  const hookNames = new Map<string, string>();
  for (const [i, b] of hookBranches.entries()) {
    const hook = isMapping(b) ? b.const : undefined;
    if (typeof hook !== 'string') continue;
    const pointer = `/components/schemas/HookType/anyOf/${i}/const`;
    const name = hookRequestTypeName(hook, { pointer, file: source });
    const other = hookNames.get(name);
    if (other !== undefined || Object.hasOwn(schemas, name) || PAYLOAD_DECLARATIONS.includes(name)) {
      throw new SpecError(
        pointer,
        'name-collision',
        `the hook type ${quoted(hook)} names the type ${name}, which is already ${other !== undefined ? `the request type of hook ${quoted(other)}` : 'a name of the callbacks types'}`,
        'give the hook type another name',
        source,
      );
    }
    hookNames.set(name, hook);
    hookTypes.push(hook);
  }
  const assumedHookTypes: Record<string, string> = {};
  for (const b of hookBranches)
    if (isMapping(b) && typeof b.const === 'string' && typeof b['x-assumed'] === 'string')
      assumedHookTypes[b.const] = b['x-assumed'];
  return { hookTypes, assumedHookTypes };
}

/**
 * Every `$ref` resolves inside the document; every schema name is a safe identifier that
 * payloads.ts does not declare itself. All problems at once.
 */
function checkCallbackNames(doc: Record<string, any>, schemas: Record<string, unknown>, source: string): void {
  const problems: SpecProblem[] = [];
  for (const { pointer, ref } of refsOf(doc)) {
    let target: unknown = doc;
    for (const segment of ref.startsWith('#/') ? refSegments(ref) : ['\0'])
      target =
        target && typeof target === 'object' && Object.hasOwn(target, segment) ? (target as any)[segment] : undefined;
    if (target === undefined)
      problems.push({
        pointer,
        rule: 'unresolved-ref',
        message: `$ref ${quoted(ref, 200)} does not resolve in this document`,
        hint: 'refer to something this file defines, e.g. #/components/schemas/<Name>',
        file: source,
      });
  }
  for (const name of Object.keys(schemas)) {
    const pointer = pointerOf('components', 'schemas', name);
    collectSpecErrors(problems, () => specIdentifier(name, { pointer, file: source }));
    if (PAYLOAD_DECLARATIONS.includes(name))
      problems.push({
        pointer,
        rule: 'name-collision',
        message: `the schema name ${name} is a name the callbacks types declare themselves`,
        hint: `rename the schema, e.g. to ${name}Schema`,
        file: source,
      });
  }
  if (problems.length) throw SpecError.of(problems.sort((a, b) => a.pointer.localeCompare(b.pointer)));
}

/** `x-truncated-refetch: { operationId, params: { <param>: <data field> } }`, checked for shape. */
