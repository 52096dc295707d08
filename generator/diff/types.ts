/**
 * The types the change report shares: a surface (what a caller of the SDK meets of an operation,
 * surface.ts builds it) and a change (what compare.ts and compare-fields.ts find between two).
 * Their own file, so the comparers and the extension modules import them without a circle.
 */

export interface FieldSurface {
  /** `text`, `items[].id`, `content<LabText>.width` ('' for the whole result). */
  path: string;
  /** The TypeScript type as the package writes it, on one line (for messages). */
  type: string;
  /** JSON types the schema admits (sorted; `integer` is a kind of `number`); undefined: any value. */
  types?: string[];
  required: boolean;
  /** Known values when the field is an enum (closed unless `openEnum`). */
  enum?: string[];
  openEnum?: boolean;
  /** `const`, as JSON. */
  const?: string;
  /** `default`, as JSON. */
  default?: string;
  deprecated?: boolean;
  /** Validation bounds (minLength, maximum, pattern, a checked format, …) as the spec writes them. */
  constraints?: Record<string, number | string>;
  /** `oneOf`/`anyOf` branches by key (component name, discriminator values, or the branch's type). */
  branches?: string[];
  /** discriminator value → the branch key it selects. */
  mapping?: Record<string, string>;
  /** Where a params field travels: path, query, header, cookie, body. */
  in?: string;
}

export interface OperationSurface {
  id: string;
  /** `im.calls.stats()` */
  call: string;
  paramsType: string;
  /** `<Stem>Result`, or `<Stem>Page` for a list. */
  resultType: string;
  itemType?: string;
  method: string;
  path: string;
  retryClass: string;
  /** `N when online_only = true; …` */
  retryClassWhen: string;
  paging?: string;
  /** `itemsField=items, cursorParam=cursor, …`: the fields the page walker reads and sends. */
  pagingFields?: string;
  successStatuses: number[];
  /** How the (first) success body is read: json, text, binary, empty. */
  responseKind: string;
  /** `201 json {…}` per status, when success statuses answer differently (the result is then a union). */
  statusShapes?: string[];
  /** Request body media types, the default first. */
  requestMedia: string[];
  /** The params object must be passed (a required field, or x-params-required). */
  paramsRequired: boolean;
  params: Map<string, FieldSurface>;
  result: Map<string, FieldSurface>;
  /** True when the params object accepts fields the spec does not list (open body). */
  paramsOpen: boolean;
  deprecated: boolean;
}

export type ChangeClass = 'breaking' | 'addition' | 'non-breaking';

export interface Change {
  class: ChangeClass;
  /** Stable kind, e.g. `operation-removed`, `param-added-required`, `type-result-changed`. */
  kind: string;
  operation: string;
  /** The SDK call, e.g. `im.calls.stats()`. */
  call?: string;
  /** The field's path, when the change is about a field (`granularity`, `items[].id`). */
  field?: string;
  /** The type and field as a caller names it, e.g. `CallsStatsParams.granularity`. */
  typeName?: string;
  /** The TypeScript types before and after, when the change is about a type. */
  before?: string;
  after?: string;
  message: string;
  /** For a breaking change: what a caller does about it. */
  migration?: string;
  /** `types`: found (or confirmed) by the TypeScript checker on the two packages. */
  source?: 'spec' | 'types';
}

export type AddChange = (c: Change) => void;
