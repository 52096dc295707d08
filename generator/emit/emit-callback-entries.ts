/**
 * Emits the two callback entry points: `src/callbacks.ts` (`im-server-sdk/callbacks`, Node) and
 * `src/callbacks-edge.ts` (`im-server-sdk/callbacks/edge`, no Node built-ins, WebCrypto).
 *
 * One event type system: the hand-written kit is generic over the event / hook / body types
 * with loose structural defaults (it cannot import generated code); each entry re-exports the
 * kit with the GENERATED unions as the defaults, so `onEvent` gets a `CallbackEventItem` and
 * `verifyCallback` returns a `CallbackRequestBody` with no type argument written.
 */
import { hookRequestTypeName, type CallbackModel } from '../build-callback-model.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { doc, docComment, docJoin, lineComment } from './spec-text.js';

interface EntryFlavour {
  file: string;
  kit: string;
  what: string;
  /** Functions only the Node entry has. */
  node: boolean;
}

const FLAVOURS: EntryFlavour[] = [
  {
    file: 'src/callbacks.ts',
    kit: './callbacks/index.js',
    what: 'The callback receiver kit for Node (hand-written runtime, node:crypto) and the payload types generated from the callbacks spec.',
    node: true,
  },
  {
    file: 'src/callbacks-edge.ts',
    kit: './callbacks/edge.js',
    what: 'The callback receiver kit for runtimes without Node built-ins (WebCrypto; no node:crypto, node:net, node:dns) and the payload types generated from the callbacks spec.',
    node: false,
  },
];

const E = 'E extends kit.CallbackEvent = CallbackEventItem';
const H = 'H extends kit.HookCallbackRequest = CallbackHookRequest';
const R = 'R extends kit.CallbackRequestBase = CallbackRequestBody';

/** Every entry that verifies or signs says which scheme it assumes and how to switch (issue 29). */
const ASSUMED_SCHEME = doc` Default signature scheme \`imSignatureV1\`, ASSUMED (seed 001 §5 does not show the algorithm: the kit takes HMAC-SHA256 over \`X-IM-Timestamp.X-IM-Nonce.raw body\`); if the service signs otherwise, pass \`signature: standardWebhooksSignature\` or a scheme of your own.`;
const ASSUMED_ANSWER = doc` Hook decisions are answered as \`{"decision": …}\` by default, also ASSUMED (§4.3 does not show the answer shape): \`hookAnswer\` switches it.`;

export function emitCallbackEntries(model: CallbackModel): Map<string, string> {
  const header = doNotEditHeader(model.source);
  const files = new Map<string, string>();
  for (const flavour of FLAVOURS) {
    files.set(
      flavour.file,
      header +
        renderSource([
          lineComment(flavour.what),
          `import * as kit from '${flavour.kit}';`,
          `import type { CallbackEventItem, CallbackHookRequest, CallbackRequestBody } from './callbacks/payloads.js';`,
          `export * from '${flavour.kit}';`,
          `export type * as payloads from './callbacks/payloads.js';`,
          `export type { ${[
            'KnownCallbackEvent',
            'CallbackEventItem',
            'CallbackEventTypeMap',
            `${model.unknownEventSchema} as UnknownCallbackEvent`,
            'KnownHookRequest',
            'CallbackHookRequest',
            'CallbackHookTypeMap',
            'CallbackRequestBody',
            ...model.hookTypes.map((h) => hookRequestTypeName(h)),
            'VerifyBody',
            'EventBody',
            'HookBody',
            'HookAnswer',
            'HookType',
            'EventType',
            'Origin',
          ].join(', ')} } from './callbacks/payloads.js';`,
          `export { isEventType, isKnownEvent, isHookType, knownEventTypes, eventOrderingFields, eventRefetchOperations, bestEffortEventTypes, knownHookTypes } from './callbacks/payloads.js';`,
          '// The kit bound to the generated payload types (these declarations take precedence over `export *`).',
          `/** Options of \`createCallbackHandler\`: \`onEvent\` gets a \`CallbackEventItem\` (narrow with \`isEventType\`/\`isKnownEvent\`), \`onHook\` a \`CallbackHookRequest\`. */\nexport type CallbackHandlerOptions<${E}, ${H}> = kit.CallbackHandlerOptions<E, H>;`,
          `export type EventContext<${E}> = kit.EventContext<E>;`,
          `export type HookContext<H extends kit.HookCallbackRequest = CallbackHookRequest> = kit.HookContext<H>;`,
          `/** A verified callback; \`body\` is a \`CallbackRequestBody\` (narrow with \`body.kind\`). */\nexport type VerifiedCallback<${R}> = kit.VerifiedCallback<R>;`,
          `${docComment(docJoin([doc`Verifies a callback request (signature over the raw bytes, timestamp, optional nonce) and returns the parsed body as the generated \`CallbackRequestBody\`. Throws \`CallbackVerificationError\`.`, flavour.node ? '' : ' WebCrypto: async only.', ASSUMED_SCHEME], ''))}\nexport function verifyCallback<${R}>(options: kit.VerifyCallbackOptions): Promise<kit.VerifiedCallback<R>> {\n  return kit.verifyCallback<R>(options);\n}`,
          ...(flavour.node
            ? [
                `${docComment(doc`\`verifyCallback\` without a promise (node:crypto; WebCrypto has no synchronous HMAC). Takes no nonceStore.${ASSUMED_SCHEME}`)}\nexport function verifyCallbackSync<${R}>(options: kit.VerifyCallbackOptions): kit.VerifiedCallback<R> {\n  return kit.verifyCallbackSync<R>(options);\n}`,
              ]
            : []),
          `${docComment(doc`A Web-standard receiver \`(request: Request) => Promise<Response>\`: verify, dedupe, \`onEvent\` per new event, hook decisions.${ASSUMED_SCHEME}${ASSUMED_ANSWER}`)}\nexport function createCallbackHandler<${E}, ${H}>(options: kit.CallbackHandlerOptions<E, H>): kit.CallbackHandler {\n  return kit.createCallbackHandler<E, H>(options);\n}`,
          ...(flavour.node
            ? [
                `/** The in-memory inbox (one process, tests); its workers get a \`CallbackEventItem\`. */\nexport class MemoryInbox<${E}> extends kit.MemoryInbox<E> {}`,
                `/** The Redis Streams inbox (a fleet of workers); its workers get a \`CallbackEventItem\`. */\nexport class RedisInbox<${E}> extends kit.RedisInbox<E> {}`,
                `${docComment(doc`\`createCallbackHandler\` as a node:http / Express \`(req, res)\` handler.${ASSUMED_SCHEME}${ASSUMED_ANSWER}`)}\nexport function createNodeCallbackHandler<${E}, ${H}>(options: kit.CallbackHandlerOptions<E, H>): kit.NodeCallbackHandler {\n  return kit.createNodeCallbackHandler<E, H>(options);\n}`,
              ]
            : []),
        ]),
    );
  }
  return files;
}
