// Copied by im-openapi from templates/runtime/contract/operation-spec.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The shape of one entry of the generated operation table.
 *
 * The generator writes one `OperationSpec` per operation of `spec/openapi.yaml`
 * (`generated/src/operations.ts`); the runtime reads nothing else about an operation.
 * Keep this file free of behaviour: it is the contract between generator and runtime.
 */
import type { RequestBodyInit, ResponseHeaders } from '../internal/http-attempt.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Retry classes of REST seed section 4. */
export type RetryClass = 'Q' | 'I' | 'U' | 'D' | 'N';

/** One test on the caller's params (body or query field), as written in `x-retry-class-when`. */
export type ParamTest =
  | { field: string; equals: string | number | boolean | null }
  | { field: string; present: boolean };

/** `class` applies when every test of `all` holds on the actual params of the call. */
export interface RetryClassCondition {
  class: RetryClass;
  all: readonly ParamTest[];
}

export type PaginationKind = 'cursor' | 'versioned' | 'sequence' | 'export';

export interface PaginationSpec {
  kind: PaginationKind;
  /** Page field that holds the items (x-assumed in the spec: the seed does not show it). */
  itemsField: string;
  /** Query parameter that carries the cursor of the next page. */
  cursorParam: string;
  /** Page field that holds the cursor of the next page; null on the last page. */
  nextCursorField: string;
  /** Versioned lists: page field that carries the list version to pass back as known_version. */
  versionField?: string;
}

/** Where the key that makes a D operation safe to repeat lives. */
export interface DedupeKeySpec {
  in: 'body' | 'header';
  name: string;
}

/** One problem found by a request validator (JSON pointer into the flat params object). */
export interface ValidationIssue {
  /** JSON pointer into the params object, e.g. `/username` or `/users/3/nickname`. */
  pointer: string;
  /** The schema rule that failed, e.g. `required`, `type`, `enum`, `maxLength`. */
  rule: string;
  /** Human-readable text. Must not contain the value of a secret-looking field. */
  message: string;
  /** For `enum`-like rules: the allowed values. */
  allowed?: readonly unknown[];
}

/** A request validator (generated, Ajv standalone code behind it). */
export interface RequestValidator {
  /** Returns null (or an empty array) when the params are valid. */
  validate(params: unknown): ValidationIssue[] | null;
  /** Reports how a success response body differs from the spec; never used to refuse it. */
  validateResponse?(body: unknown): ValidationIssue[] | null;
}

export interface BatchSplitSpec {
  field: string;
  max: number;
}

/**
 * How a query parameter is serialised when it is not `style: form, explode: true` (the default,
 * and the only style of the seed's operations). Names follow OpenAPI 3.1 section 4.8.12.4:
 * `formNoExplode` is `style: form, explode: false`; `form` is written only for an object parameter
 * (its properties are spread: `R=100&G=200`), which the default path refuses.
 */
export type QueryStyle = 'form' | 'formNoExplode' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/** Request body kinds: how the flat params become the body. */
export type BodyKind = 'json' | 'form' | 'multipart' | 'binary' | 'text';

/** Success body kinds: how the answer is read. */
export type ResponseKind = 'json' | 'binary' | 'text' | 'empty';

/** Multipart `encoding` of one property. */
export interface PartEncoding {
  contentType?: string;
  /** Extra part headers (name → value as written in the spec's example/default, if any). */
  headers?: Readonly<Record<string, string>>;
}

/** One request body media type (only written when the body is not the plain JSON object). */
export interface RequestBodySpec {
  contentType: string;
  kind: BodyKind;
  /** Object kinds: the declared fields (sent in this order). */
  fields?: readonly string[];
  /** JSON: the body is the value of the params field `body` (BODY_PARAM), not the other params (an array body, or a field named like a parameter). */
  whole?: boolean;
  /** Multipart: the fields that are file parts. */
  files?: readonly string[];
  /** Multipart: per-field encoding. */
  encoding?: Readonly<Record<string, PartEncoding>>;
}

/**
 * The code for wire constructs beyond JSON bodies and form-style queries (internal/wire-codec.ts).
 * Only the table entries of operations that use them carry it, so an app that calls JSON
 * operations only does not bundle it.
 */
export interface WireCodec {
  /** The query string (with `?`, or '') of an operation with `queryStyles`. */
  query(op: OperationSpec, params: Record<string, unknown>): string;
  /** Headers from header and cookie parameters (lower-case names). */
  headers(op: OperationSpec, params: Record<string, unknown>): Record<string, string> | undefined;
  /** The body in the picked media type (`object`: the params that are not path/query/header/cookie). */
  body(
    op: OperationSpec,
    bodies: readonly RequestBodySpec[],
    object: Record<string, unknown>,
    contentType: string | undefined,
  ): { body: RequestBodyInit; contentType: string; oneShot: boolean } | undefined;
  /** The data of a success answer that is not JSON: binary → a BinaryResponse, text → the text, empty → undefined. */
  responseData(kind: Exclude<ResponseKind, 'json'>, answer: WireAnswer): unknown;
  /** Adds to an error why a call with a stream body was not resent. */
  notReplayable<E extends Error>(error: E): E;
}

/** A success answer as the wire codec gets it. */
export interface WireAnswer {
  operationId: string;
  status: number;
  headers: ResponseHeaders;
  /** The body read (bounded) as text; '' for a binary answer, whose body is `stream`. */
  bodyText: string;
  stream: ReadableStream<Uint8Array> | null | undefined;
  limitBytes: number;
  attempts: number;
}

/** The params field that carries a binary or text body (a spec parameter may not use it). */
export const BODY_PARAM = 'body';

export interface OperationSpec {
  /** The seed's op name, e.g. `users.create`. */
  id: string;
  method: HttpMethod;
  /** Path relative to `/{org_name}/{app_name}`, with `{param}` placeholders. */
  path: string;
  /** True for the token exchange only: its path is the full path (it still starts at the prefix). */
  isTokenExchange?: boolean;
  /** False for the token exchange; every other operation sends the App Token. */
  auth: boolean;
  /** Path parameters other than org_name and app_name, in path order. */
  pathParams: readonly string[];
  queryParams: readonly string[];
  /** Query parameters with another style than form/explode (by name). */
  queryStyles?: Readonly<Record<string, QueryStyle>>;
  /** Query parameters with `allowEmptyValue`: only these may be sent as `name=`. */
  allowEmpty?: readonly string[];
  /** Header parameters (wire names, as the spec writes them; sent lower-cased). */
  headerParams?: readonly string[];
  /** Header parameters with `explode: true` (objects as `k=v,k=v`). */
  explodeHeaders?: readonly string[];
  /** Cookie parameters, sent as one `Cookie` header. */
  cookieParams?: readonly string[];
  /**
   * 'object': params that are neither path nor query go into a JSON object body.
   * 'none': the operation sends no body (extra params are refused by validation).
   */
  body: 'object' | 'none';
  /** Names of body fields that the spec declares (documentation and clash checks). */
  bodyFields: readonly string[];
  /**
   * The request body media types when the body is not one JSON object (the default first; pick
   * another with the `contentType` request option). Absent: `body` above says it all.
   */
  requestBodies?: readonly RequestBodySpec[];
  retryClass: RetryClass;
  retryClassWhen?: readonly RetryClassCondition[];
  dedupeKey?: DedupeKeySpec;
  pagination?: PaginationSpec;
  /** Batch helper split (x-batch-split): the list field and its maximum per request. */
  batchSplit?: BatchSplitSpec;
  /** HTTP statuses the spec lists as success (e.g. [200], [200, 201], [200, 202]). */
  successStatuses: readonly number[];
  /**
   * The response schema holds int64 fields: JSON bodies are parsed keeping integers beyond 2^53
   * exact (bigint). Other operations use plain JSON.parse, so a long number in an open field of
   * theirs stays a number (a bigint there would break the caller's own JSON.stringify).
   */
  int64Response?: boolean;
  /** The `Accept` header: the success responses' media types; absent = `application/json`. */
  accept?: string;
  /** How a success body is read; absent = JSON. */
  response?: Exclude<ResponseKind, 'json'>;
  /**
   * Success statuses whose bodies differ: the result is `{ status, data }` and the kind is per
   * status (statuses not listed are read as `response` says).
   */
  responseByStatus?: Readonly<Record<number, ResponseKind>>;
  /** Set (by the generator) exactly when the entry uses queryStyles, header/cookie params, requestBodies or a binary response. */
  wire?: WireCodec;
  /**
   * Loads the request validator of this operation (lazily, so that an app bundles only the
   * validators of the operations it calls). Optional: without it the runtime only checks
   * what it needs to build the request (path parameters, query value types).
   */
  loadValidator?: () => Promise<RequestValidator>;
}
