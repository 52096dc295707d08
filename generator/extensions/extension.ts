/**
 * What one spec extension is, in one place (issue 32): its JSON Schema fragment, its checks, what
 * it feeds into the model, its doc lines and its change-report rule. Each `x-` name has a module in
 * this folder exporting one `Extension`; index.ts lists them, and load-spec, check-extensions,
 * build-model, the operation docs and the change report loop over that list instead of naming
 * extensions. Every hook is optional: an extension that only marks provenance has a schema and a
 * doc line, nothing else.
 */
import type { DocText } from '../emit/spec-text.js';
import type { AddChange, OperationSurface } from '../diff/types.js';
import type {
  BodyModel,
  CallbackEventTypeModel,
  FieldModel,
  HelperMethodModel,
  JsonSchema,
  OperationModel,
} from '../model.js';
import type { SpecProblem } from '../spec-error.js';

/** Where an extension may stand: on an operation, on any object of either spec, in the callbacks spec. */
export type ExtensionPlace = 'operation' | 'anywhere' | 'callbacks';

/** An operation as load-spec checks it: the raw object, where it is, its operationId. */
export interface OperationContext {
  /** The raw operation object (other extensions of it may be read for cross-checks). */
  op: Record<string, any>;
  /** JSON pointer of the operation. */
  at: string;
  id: string;
}

/** An operation as build-model reads it: its parameters, body and response already built. */
export interface OperationReadContext extends OperationContext {
  queryParams: readonly FieldModel[];
  body: BodyModel | null;
  /** The first success response's schema. */
  response: JsonSchema;
  /** `schema` with its `$ref`s followed (a few levels). */
  resolve(schema: JsonSchema | undefined): JsonSchema | undefined;
}

/** An event schema of the callbacks spec as build-callback-model.ts reads it. */
export interface EventReadContext {
  /** The event item's schema (`type`, `data`, its extensions). */
  schema: JsonSchema;
  /** Its `data` schema, `$ref` followed. */
  data: JsonSchema;
  /** JSON pointer of the event schema. */
  at: string;
  /** The callbacks spec's file, for a refusal. */
  source: string;
}

/** What a helper-declaring extension reads with (build-helpers.ts): each refuses what does not exist or clashes. */
export interface HelperReader {
  /** The operation an extension names by operationId. */
  ref(extension: string, id: unknown): OperationModel;
  /** The names of a helper method `method` (snake_case) on the operation's resource. */
  named(
    method: unknown,
    extension: string,
  ): Pick<HelperMethodModel, 'namespace' | 'methodName' | 'funcName' | 'typeStem'>;
}

export interface Extension {
  name: `x-${string}`;
  place: ExtensionPlace;
  /** The README row's "where" and "meaning" (markdown); the schema's description says it in plain words. */
  readme: { where: string; meaning: string };
  /** Its JSON Schema, `description` included; `#/$defs/<name>` may name a shared definition of index.ts. */
  schema: JsonSchema;
  /**
   * A refusal in the extension's own words for an operation value its schema refuses (e.g. the
   * retry class with a did-you-mean); undefined: the generic one of check-extensions.ts speaks.
   */
  explain?(value: unknown, ctx: OperationContext): SpecProblem | undefined;
  /**
   * Checks beyond the schema, on an operation whose value fits it (called when it is absent too,
   * with undefined, for "required when …" rules). Throws a SpecError.
   */
  check?(value: any, ctx: OperationContext): void;
  /** The OperationModel fields it feeds (called when absent too); may throw a SpecError (a cross-check). */
  read?(value: any, ctx: OperationReadContext): Partial<OperationModel>;
  /** The helper methods it declares on the operation's resource (build-helpers.ts). */
  helpers?(value: any, op: OperationModel, reader: HelperReader): HelperMethodModel[];
  /** The event type fields it feeds (callbacks spec, build-callback-model.ts); may throw a SpecError. */
  readEvent?(ctx: EventReadContext): Partial<CallbackEventTypeModel>;
  /** Sentences of the operation's doc comment (after its description, before the assumptions). */
  docLines?(op: OperationModel): DocText[];
  /** JSDoc tags of the operation's doc comment (after `@throws`, before `@deprecated`). */
  docTags?(op: OperationModel): DocText[];
  /** What a caller meets of it, for the change report (surface.ts). */
  surface?(op: OperationModel): Partial<OperationSurface>;
  /** Its change-report rule: what changed between two surfaces, and how bad it is. */
  compare?(
    old: OperationSurface,
    now: OperationSurface,
    change: (c: Omit<Parameters<AddChange>[0], 'operation' | 'call'>) => void,
  ): void;
}

/** `extension` as it is (a function, so a module gets its type checked where it is written). */
export const defineExtension = (extension: Extension): Extension => extension;
