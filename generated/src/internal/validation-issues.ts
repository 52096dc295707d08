// Copied by im-openapi from templates/runtime/internal/validation-issues.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Turns the errors of a generated request validator (Ajv standalone code, `allErrors: true`)
 * into `ValidationIssue`s a person can act on (internal, unstable).
 *
 * - `pointer` is the JSON pointer of the failing field in the flat params object; for
 *   `required` and `additionalProperties` it points at the missing or extra field itself.
 * - `rule` is the JSON Schema keyword that failed (`required`, `type`, `enum`, `pattern`, …).
 * - `message` names the field and says the rule in words; `allowed` lists the values of an
 *   `enum` or `const`.
 * - The value of a field whose name looks secret (password, client_secret, token…) is never
 *   quoted; other values are quoted only when short.
 * - `anyOf` failures are folded: the branch whose type matched (the one with the fewest errors)
 *   speaks for the field; when no branch's type matched, one `type` issue lists the accepted
 *   types. A discriminated union reports its selected branch only (the generator selects it
 *   with `if`/`then`; `if` errors are skipped).
 * - A response drift issue (`ctx.response`) speaks of the response, never of params.
 */
import type { ValidationIssue } from '../operation.js';
import {
  escapePointerSegment,
  fieldLabel,
  got,
  limitMessage,
  listTypes,
  pathParamProblem,
  segmentsOf,
  show,
  typesOf,
  valueAt,
} from './issue-text.js';
import { PATH_SEGMENT_PATTERN } from '../contract/path-rules.js';

/** What an Ajv error object carries (the fields this module reads). */
export interface AjvErrorLike {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
}

/** What the generator tells the mapping about one operation. */
export interface ValidatorContext {
  /** Names of the path parameters (messages say why a value would change the path). */
  readonly pathParams: readonly string[];
  /** True for the response drift check: messages speak of the response, not of params. */
  readonly response?: boolean;
}

export { PATH_SEGMENT_PATTERN };
export { escapePointerSegment, fieldLabel } from './issue-text.js';

function pointerOf(e: AjvErrorLike): string {
  if (e.keyword === 'required' || e.keyword === 'dependentRequired')
    return `${e.instancePath}/${escapePointerSegment(String(e.params.missingProperty))}`;
  if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
    const extra = e.params.additionalProperty ?? e.params.unevaluatedProperty;
    return `${e.instancePath}/${escapePointerSegment(String(extra))}`;
  }
  return e.instancePath;
}

function isUnder(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

/**
 * Folds every failed `anyOf`/`oneOf` (innermost first) into the errors of the branch that
 * matched the value's type, or into one `type` error listing the accepted types.
 */
function foldAlternatives(input: readonly AjvErrorLike[]): AjvErrorLike[] {
  let errors = [...input];
  const alternatives = errors
    .filter((e) => e.keyword === 'anyOf' || (e.keyword === 'oneOf' && !e.params.passingSchemas))
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const alt of alternatives) {
    if (!errors.includes(alt)) continue;
    const prefix = `${alt.schemaPath}/`;
    const inside = errors.filter(
      (e) => e !== alt && e.schemaPath.startsWith(prefix) && isUnder(e.instancePath, alt.instancePath),
    );
    const branches = new Map<string, AjvErrorLike[]>();
    for (const e of inside) {
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const typeMismatch = (list: AjvErrorLike[]) =>
      list.some((e) => e.keyword === 'type' && e.instancePath === alt.instancePath);
    // of the branches whose type matched, the one with the fewest errors speaks (the closest shape)
    const matching = [...branches.values()]
      .filter((list) => !typeMismatch(list))
      .sort((a, b) => a.length - b.length)[0];
    let replacement: AjvErrorLike[];
    if (matching) {
      replacement = matching;
    } else {
      const types: string[] = [];
      for (const e of inside) {
        if (e.keyword === 'type' && e.instancePath === alt.instancePath) {
          for (const t of typesOf(e.params.type)) if (!types.includes(t)) types.push(t);
        }
      }
      replacement = types.length
        ? [
            {
              instancePath: alt.instancePath,
              schemaPath: `${alt.schemaPath}/type`,
              keyword: 'type',
              params: { type: types },
            },
          ]
        : [alt];
    }
    // the replacement stands where the alternative stood (its branch errors came just before it)
    errors = errors.flatMap((e) => (e === alt ? replacement : inside.includes(e) ? [] : [e]));
  }
  return errors;
}

function issueOf(e: AjvErrorLike, params: unknown, ctx: ValidatorContext): ValidationIssue {
  const pointer = pointerOf(e);
  const label = `\`${fieldLabel(pointer)}\``;
  const value = valueAt(params, pointer);
  const isPathParam = segmentsOf(pointer).length === 1 && ctx.pathParams.includes(segmentsOf(pointer)[0]!);
  const subject = isPathParam ? `path parameter ${label}` : label;
  const p = e.params;
  const issue = (message: string, allowed?: readonly unknown[]): ValidationIssue =>
    allowed ? { pointer, rule: e.keyword, message, allowed } : { pointer, rule: e.keyword, message };
  const limit = limitMessage(e.keyword, subject, p, pointer, value);
  if (limit !== undefined) return issue(limit);
  switch (e.keyword) {
    case 'required':
    case 'dependentRequired':
      return issue(`${subject} is required`);
    case 'additionalProperties':
    case 'unevaluatedProperties':
      if (ctx.response) {
        return issue(
          `${label} is not a field the spec declares for this response (\`${e.instancePath === '' ? 'body' : fieldLabel(e.instancePath)}\` is a documented shape; the service may have added it)`,
        );
      }
      return issue(
        e.instancePath === ''
          ? `${label} is not a field of this operation (unknown fields are refused here: the spec declares the params closed)`
          : `${label} is not allowed: the spec declares \`${fieldLabel(e.instancePath)}\` a closed shape (no extra fields)`,
      );
    case 'false schema':
      // the generator writes `false` for a readOnly property in request validators (transform/inline-schema.ts)
      return { pointer, rule: 'readOnly', message: `${label} is read-only: the service sets it` };
    case 'type': {
      const types = typesOf(p.type);
      return issue(
        e.instancePath === '' && types[0] === 'object'
          ? `params must be an object of named fields${got(pointer, value)}`
          : `${subject} must be ${listTypes(types)}${got(pointer, value)}`,
      );
    }
    case 'enum': {
      const allowed: unknown[] = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      return issue(`${subject} must be one of ${allowed.map(show).join(', ')}${got(pointer, value)}`, allowed);
    }
    case 'const':
      return issue(`${subject} must be ${show(p.allowedValue)}${got(pointer, value)}`, [p.allowedValue]);
    case 'pattern':
      return p.pattern === PATH_SEGMENT_PATTERN
        ? issue(`${subject} ${pathParamProblem(value)}`)
        : issue(`${subject} must match the pattern /${p.pattern}/`);
    case 'format':
      return issue(
        p.format === 'date-time'
          ? `${subject} must be a date-time (RFC 3339 with an offset, e.g. "2025-01-31T12:00:00Z")`
          : `${subject} must be a valid ${p.format}`,
      );
    case 'uniqueItems':
      return issue(`${subject} must not repeat items (items ${p.j} and ${p.i} are equal)`);
    case 'anyOf':
    case 'oneOf':
      return issue(
        p.passingSchemas
          ? `${subject} matches more than one allowed shape`
          : `${subject} matches none of the allowed shapes`,
      );
    case 'not':
      return issue(`${subject} has a value that is not allowed here`);
    default:
      return issue(`${subject} does not satisfy the rule \`${e.keyword}\``);
  }
}

/**
 * Ajv errors → issues, in the validator's order, without duplicates. Never returns an empty
 * list for a non-empty input.
 */
export function issuesFromAjv(
  errors: readonly AjvErrorLike[] | null | undefined,
  params: unknown,
  ctx: ValidatorContext,
): ValidationIssue[] {
  if (!errors?.length) return [];
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of foldAlternatives(errors)) {
    if (e.keyword === 'if' || e.keyword === 'then' || e.keyword === 'else') continue;
    const issue = issueOf(e, params, ctx);
    const key = `${issue.pointer}\u0000${issue.rule}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  if (!out.length) out.push({ pointer: '', rule: 'schema', message: "params do not match the operation's schema" });
  return out;
}
