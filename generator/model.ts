/**
 * The intermediate model: everything the emitters need, and nothing they would have to look up
 * in YAML. Built once by `buildApiModel`, read by every emitter.
 */
import type {
  DedupeKeySpec,
  HttpMethod,
  PaginationSpec,
  RetryClass,
  RetryClassCondition,
} from '../templates/runtime/contract/operation-spec.js';

/** A JSON Schema node as it stands in the spec ($refs kept, so types keep their names). */
export type JsonSchema = Record<string, any>;

export interface FieldModel {
  name: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
  /** x-assumed reason on the field itself, if any. */
  assumed?: string;
  /** `deprecated: true` on the parameter (or property). */
  deprecated?: boolean;
  /** The parameter's schema `default` (documentation only: the client does not fill it in). */
  default?: unknown;
  /** Query: the OpenAPI style when it is not form (explode true is the default). */
  style?: QueryStyle;
  /** Query/header/cookie: explode as written (undefined = the style's default). */
  explode?: boolean;
  /** Query: `allowEmptyValue: true` (an empty string goes out as `name=`). */
  allowEmptyValue?: boolean;
  /** Multipart: a file part (format binary, or a contentMediaType without contentEncoding). */
  file?: 'one' | 'many';
}

export type { QueryStyle, BodyKind, ResponseKind, PartEncoding } from '../templates/runtime/contract/operation-spec.js';
import type { QueryStyle, BodyKind, ResponseKind, PartEncoding } from '../templates/runtime/contract/operation-spec.js';

/** One request body media type of an operation. */
export interface BodyModel {
  /** The media type as the spec lists it, e.g. `multipart/form-data`. */
  contentType: string;
  kind: BodyKind;
  /**
   * json/form/multipart: the object's properties (flat params fields). binary/text: one field
   * under the reserved name `body` (BODY_PARAM) that carries the whole payload.
   */
  fields: FieldModel[];
  /**
   * JSON: the body is not sent as the params object's other fields but whole, as the value of the
   * params field `body` (BODY_PARAM): a body that is not an object (an array, a string), or one
   * with a field named like a path/query/header/cookie parameter.
   */
  whole?: boolean;
  /** Object kinds: fields beyond the spec's are accepted (additionalProperties not false). */
  open: boolean;
  /** Multipart: the spec's `encoding` per property (contentType, headers). */
  encoding?: Record<string, PartEncoding>;
  /**
   * JSON: a top-level oneOf/anyOf body, one flat variant per branch (each branch's fields; the
   * discriminator values that select it). `fields` then holds every branch's fields, so the
   * runtime knows which params go into the body.
   */
  union?: {
    keyword: 'oneOf' | 'anyOf';
    discriminator?: { propertyName: string };
    variants: { fields: FieldModel[]; open: boolean; values?: string[] }[];
  };
  /**
   * JSON: a top-level oneOf/anyOf whose branches only list `required` (`anyOf: [{ required: [a] },
   * { required: [b] }]`): constraints on the fields, not shapes. The fields are the object's;
   * the validator checks the constraint on the params object.
   */
  constraint?: { keyword: 'oneOf' | 'anyOf'; branches: JsonSchema[] };
}

/** One success status whose response differs from the others (the result is then a union). */
export interface StatusResponseModel {
  status: number;
  kind: ResponseKind;
  schema: JsonSchema;
}

export interface Provenance {
  /** JSON pointer into the spec. */
  pointer: string;
  kind: 'x-assumed' | 'x-not-documented';
  reason: string;
}

export interface OperationModel {
  id: string;
  namespace: string;
  /** camelCase method name on the namespace, e.g. `batchCreate`. */
  methodName: string;
  /** Standalone function name, e.g. `usersBatchCreate`. */
  funcName: string;
  /** PascalCase stem for type names, e.g. `UsersBatchCreate`. */
  typeStem: string;
  method: HttpMethod;
  /** Full spec path (with the /{org_name}/{app_name} prefix). */
  specPath: string;
  /** Path relative to the prefix. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  auth: boolean;
  isTokenExchange: boolean;
  pathParams: FieldModel[];
  queryParams: FieldModel[];
  headerParams: FieldModel[];
  cookieParams: FieldModel[];
  /** `deprecated: true` on the operation. */
  deprecated: boolean;
  /** null: the operation sends no body. Else the first listed media type (the default). */
  body: BodyModel | null;
  /** Every request body media type, the default first ([] when there is no body). */
  bodies: BodyModel[];
  /** True when the caller must pass a params object (a required field, or x-params-required). */
  paramsRequired: boolean;
  retryClass: RetryClass;
  retryClassWhen: RetryClassCondition[];
  dedupeKey?: DedupeKeySpec;
  batchSplit?: { field: string; max: number };
  pagination?: PaginationSpec;
  successStatuses: number[];
  /** Response body schema of the first success status. */
  response: JsonSchema;
  /** How the first success status's body is read (json unless the spec says otherwise). */
  responseKind: ResponseKind;
  /** Media types of the success responses (what the client accepts), in spec order; [] when none has content. */
  successMediaTypes: string[];
  /** Set when success statuses differ in shape: the result is `{ status, data }` per status. */
  statusResponses?: StatusResponseModel[];
  /** For lists: the schema of one item. */
  itemSchema?: JsonSchema;
  /** Set when the client does not validate this operation's params and response (a fallback), with the reason. */
  unvalidated?: string;
  /** Every provenance mark inside this operation (params, body, response refs not followed). */
  provenance: Provenance[];
  /** The error responses the spec lists (status or `default`) and the error codes of their examples, for `@throws`. */
  errorResponses: ErrorResponseModel[];
}

/** One event type of the callbacks spec, with what its extensions say (generator/extensions/, `readEvent`). */
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

/** One error response of an operation: its status (`404`, `default`) and the `error.code` values its examples show. */
export interface ErrorResponseModel {
  status: string;
  codes: string[];
}

/** A convenience method built from several operations by a runtime helper (templates/runtime/helpers). */
export type HelperMethodModel = {
  namespace: string;
  methodName: string;
  funcName: string;
  typeStem: string;
  /** The extension it comes from, for docs and errors. */
  source: string;
  assumed?: string;
} & (
  | { kind: 'toggle'; field: string; whenTrue: OperationModel; whenFalse: OperationModel; description: string }
  /** `alias`: the walker's former name (`listAll`), kept as a deprecated method and function. */
  | { kind: 'versioned-all'; list: OperationModel; alias?: { methodName: string; funcName: string } }
  | {
      kind: 'pending-items';
      items: OperationModel;
      decide: OperationModel;
      idField: string;
      versionField: string;
      statuses: string[];
      pageSize: number;
    }
  | {
      kind: 'upload' | 'resume-upload';
      create: OperationModel;
      partUrls: OperationModel;
      uploadedParts: OperationModel;
      complete: OperationModel;
    }
);

/** The payload of an OpenAPI `webhooks` entry or an operation's `callbacks` entry: a request the API sends to the caller (build-webhooks.ts). */
export interface WebhookModel {
  kind: 'webhook' | 'callback';
  /** The webhook's key, or `<operationId> <callback name>`. */
  name: string;
  method: string;
  /** JSON pointer of the operation in the webhook / callback path item. */
  pointer: string;
  /** The exported payload type, e.g. `NewPetWebhookPayload`. */
  typeName: string;
  schema: JsonSchema;
  description: string;
}

export interface NamedSchema {
  name: string;
  schema: JsonSchema;
}

export interface ApiModel {
  title: string;
  version: string;
  /** Relative path of the spec, for do-not-edit headers. */
  source: string;
  operations: OperationModel[];
  /** Namespaces in sorted order, each with its operations sorted by id. */
  namespaces: { name: string; className: string; operations: OperationModel[]; helpers: HelperMethodModel[] }[];
  schemas: NamedSchema[];
  /** Every provenance mark of the whole spec, sorted by pointer. */
  provenance: Provenance[];
  /** Payloads of `webhooks` and operations' `callbacks`, typed beside the REST types (no client calls). */
  webhooks: WebhookModel[];
  /** What the generator tolerated but a spec author should fix (unknown formats…), with JSON pointers. */
  warnings: GeneratorWarning[];
}

export interface GeneratorWarning {
  pointer: string;
  message: string;
  /** What kind of tolerance (e.g. `component-renamed`, `unknown-keyword`). */
  rule?: string;
  /**
   * A construct the generator cannot express, written in its loosest honest form (`unknown`,
   * validated as far as it can be): `--strict` turns these into errors.
   */
  fallback?: boolean;
}
