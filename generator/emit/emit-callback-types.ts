/**
 * Emits `src/callbacks/payloads.ts` (a type per callbacks schema, the event union discriminated
 * by `type` with unknown types kept, the ordering table from x-ordering-version marks) and
 * the callback entry points (`emit-callback-entries.ts`).
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { hookRequestTypeName, type CallbackModel } from '../build-callback-model.js';
import { schemaDocs } from './emit-schema-types.js';
import { typeOf } from '../transform/schema-to-ts.js';
import { emitCallbackEntries } from './emit-callback-entries.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { doc, jsDocs, jsonLiteral, stringLiteral } from './spec-text.js';

export { hookRequestTypeName };

/** `src/callbacks/payloads.ts` (payload types, event and hook tables, type guards) and the callback entries. */
export function emitCallbackTypes(model: CallbackModel): Map<string, string> {
  const statements = [
    ...schemaStatements(model),
    ...eventStatements(model),
    ...hookStatements(model),
    ...guardStatements(),
  ];
  const files = new Map<string, string>();
  files.set('src/callbacks/payloads.ts', doNotEditHeader(model.source) + renderSource(statements));
  for (const [path, text] of emitCallbackEntries(model)) files.set(path, text);
  return files;
}

/** One exported type per callbacks schema. */
function schemaStatements(model: CallbackModel): StatementStructures[] {
  return model.schemas.map(({ name, schema }) => {
    const docs = schemaDocs(schema);
    return {
      kind: StructureKind.TypeAlias,
      name,
      isExported: true,
      type: typeOf(schema, { refName: (n) => n }),
      ...(docs ? { docs: jsDocs(docs) } : {}),
    };
  });
}

/** The event union, its type map and the per-event tables the runtime reads. */
function eventStatements(model: CallbackModel): StatementStructures[] {
  return [...eventTypeStatements(model), ...eventTableStatements(model)];
}

/** KnownCallbackEvent, CallbackEventItem (with unknown events) and CallbackEventTypeMap. */
function eventTypeStatements(model: CallbackModel): StatementStructures[] {
  const known = model.eventTypes.map((e) => e.schemaName);
  return [
    {
      kind: StructureKind.TypeAlias,
      name: 'KnownCallbackEvent',
      isExported: true,
      docs: jsDocs('Every event type the callbacks spec names, discriminated by `type`.'),
      type: known.join(' | '),
    },
    {
      kind: StructureKind.TypeAlias,
      name: 'CallbackEventItem',
      isExported: true,
      docs: jsDocs(
        doc`One item of an event request: a known event, or an \`${model.unknownEventSchema}\` (new types are added over time; ignore them without failing). Narrow with \`isEventType(event, 'group.members_added')\`.`,
      ),
      type: `KnownCallbackEvent | ${model.unknownEventSchema}`,
    },
    {
      kind: StructureKind.Interface,
      name: 'CallbackEventTypeMap',
      isExported: true,
      docs: jsDocs('Event type → its event item type.'),
      properties: model.eventTypes.map((e) => ({ name: stringLiteral(e.type), type: e.schemaName })),
    },
  ];
}

/** `export const <name>: <type> = <initializer>;` with its doc. */
function exportedConst(name: string, type: string, initializer: string, docs: string): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDocs(docs),
    declarations: [{ name, type, initializer }],
  };
}

/** The per-event tables the runtime reads: known types, ordering fields, refetch operations, best effort. */
function eventTableStatements(model: CallbackModel): StatementStructures[] {
  const events = model.eventTypes;
  return [
    exportedConst(
      'knownEventTypes',
      'ReadonlySet<string>',
      `new Set(${jsonLiteral(events.map((e) => e.type))})`,
      'The event types the callbacks spec names (anything else is an unknown event).',
    ),
    exportedConst(
      'eventOrderingFields',
      'Readonly<Record<string, string>>',
      jsonLiteral(Object.fromEntries(events.filter((e) => e.orderingField).map((e) => [e.type, e.orderingField]))),
      "Event type → the data field that orders its events (from the spec's x-ordering-version marks). Pass it to `isNewer`/`orderingMarkOf`.",
    ),
    exportedConst(
      'eventRefetchOperations',
      'Readonly<Record<string, { operationId: string; params: Readonly<Record<string, string>> }>>',
      jsonLiteral(Object.fromEntries(events.filter((e) => e.refetch).map((e) => [e.type, e.refetch]))),
      "Event type → the REST call that fetches what truncation (`data.truncated`) dropped: operationId and, per parameter, the data field holding it (from the spec's x-truncated-refetch marks). The inbox passes it as `context.truncated.refetch`.",
    ),
    exportedConst(
      'bestEffortEventTypes',
      'ReadonlySet<string>',
      `new Set(${jsonLiteral(events.filter((e) => e.bestEffort).map((e) => e.type))})`,
      'Best-effort event types: buffered about 1 s before queueing; lost if the instance crashes, never replayed.',
    ),
  ];
}

/** The hook table, one request type per hook type, their unions and the request body union. */
function hookStatements(model: CallbackModel): StatementStructures[] {
  return [
    exportedConst(
      'knownHookTypes',
      'ReadonlySet<string>',
      `new Set(${jsonLiteral(model.hookTypes)})`,
      'Hook types the callbacks spec names (others may come).',
    ),
    ...model.hookTypes.map((hook) => ({
      kind: StructureKind.TypeAlias as const,
      name: hookRequestTypeName(hook),
      isExported: true,
      docs: jsDocs(
        schemaDocs({
          description: `A hook request of type \`${hook}\` (its data is not documented by the service: an open object).`,
          ...(model.assumedHookTypes[hook]
            ? { 'x-assumed': `the name \`${hook}\` is ours: ${model.assumedHookTypes[hook]}` }
            : {}),
        })!,
      ),
      type: `HookBody & { hook: ${stringLiteral(hook)} }`,
    })),
    {
      kind: StructureKind.TypeAlias,
      name: 'KnownHookRequest',
      isExported: true,
      docs: jsDocs('Every hook request of a type the callbacks spec names, discriminated by `hook`.'),
      type: model.hookTypes.map((h) => hookRequestTypeName(h)).join(' | ') || 'never',
    },
    {
      kind: StructureKind.TypeAlias,
      name: 'CallbackHookRequest',
      isExported: true,
      docs: jsDocs(
        "A hook request: a known hook type, or another one (new hook types may come). Narrow with `isHookType(request, 'message.before_send')`.",
      ),
      type: 'KnownHookRequest | HookBody',
    },
    {
      kind: StructureKind.Interface,
      name: 'CallbackHookTypeMap',
      isExported: true,
      docs: jsDocs('Hook type → its request type.'),
      properties: model.hookTypes.map((hook) => ({ name: stringLiteral(hook), type: hookRequestTypeName(hook) })),
    },
    {
      kind: StructureKind.TypeAlias,
      name: 'CallbackRequestBody',
      isExported: true,
      docs: jsDocs('Any callback request body, discriminated by `kind`: verify, event or hook.'),
      type: 'VerifyBody | EventBody | HookBody',
    },
  ];
}

/** Type guards over events and hooks. */
function guardStatements(): StatementStructures[] {
  return [
    {
      kind: StructureKind.Function,
      name: 'isHookType',
      isExported: true,
      typeParameters: [{ name: 'T', constraint: 'keyof CallbackHookTypeMap' }],
      docs: jsDocs('True when `request` is a hook request of the named type; narrows it to that type.'),
      parameters: [
        { name: 'request', type: '{ hook?: unknown }' },
        { name: 'hook', type: 'T' },
      ],
      returnType: 'request is CallbackHookTypeMap[T]',
      statements: ['return request.hook === hook;'],
    },
    {
      kind: StructureKind.Function,
      name: 'isEventType',
      isExported: true,
      typeParameters: [{ name: 'T', constraint: 'keyof CallbackEventTypeMap' }],
      docs: jsDocs("True when `event` is of the named type; narrows it to that event's type."),
      parameters: [
        { name: 'event', type: '{ type?: unknown }' },
        { name: 'type', type: 'T' },
      ],
      returnType: 'event is CallbackEventTypeMap[T]',
      statements: ['return event.type === type;'],
    },
    {
      kind: StructureKind.Function,
      name: 'isKnownEvent',
      isExported: true,
      docs: jsDocs('True for an event type the spec names; false for an unknown (newer) type.'),
      parameters: [{ name: 'event', type: 'CallbackEventItem' }],
      returnType: 'event is KnownCallbackEvent',
      statements: ['return knownEventTypes.has(event.type as string);'],
    },
  ];
}
