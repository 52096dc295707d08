/**
 * The `@example` and `@throws` tags of an operation's doc comment (issue 31): a call a user can
 * copy, and each error class the call can reject with, from the spec's error responses and the
 * operation's retry class. Spec values reach the text through spec-text.ts.
 */
import type { FieldModel, JsonSchema, OperationModel } from '../model.js';
import { doc, docJoin, jsonLiteral, propertyKey, type DocText } from './spec-text.js';

/**
 * The error class the client makes of each code the seed gives (templates/runtime/core/error-from-response.ts),
 * with what it means for this call. The access refusals every signed call shares are named together
 * in one shorter line (`ACCESS_CODES`); each class's own doc comment says the rest (issue 33: the
 * full sentences on every method and function were 0.5 MB of the package's declarations).
 */
const CODE_CLASSES: Record<string, { name: string; when: string }> = {
  invalid_argument: {
    name: 'InvalidArgumentError',
    when: '400 invalid_argument: the service refused an argument (see `details`).',
  },
  invalid_client: {
    name: 'InvalidClientError',
    when: '401 invalid_client: wrong Client ID or Client Secret, or the application does not exist.',
  },
  not_found: {
    name: 'NotFoundError',
    when: 'not_found: what the path names does not exist (after a resend: `mayBeEchoOfEarlierAttempt`).',
  },
  already_exists: {
    name: 'AlreadyExistsError',
    when: 'already_exists: it exists already (after a resend: `mayBeEchoOfEarlierAttempt`).',
  },
  version_conflict: { name: 'VersionConflictError', when: 'version_conflict: the version given is no longer current.' },
};

/** 401 unauthenticated and the four 403s: the App Token, this server or the application refused, whatever the call. */
const ACCESS_CODES: Record<string, string> = {
  unauthenticated: 'UnauthenticatedError',
  permission_denied: 'PermissionDeniedError',
  ip_not_allowed: 'IpNotAllowedError',
  tenant_unavailable: 'TenantUnavailableError',
  app_unavailable: 'AppUnavailableError',
};

/** The error codes of the call's error responses, once each, in the spec's order. */
function errorCodes(op: OperationModel): string[] {
  const codes = op.errorResponses.filter((r) => r.status !== 'default').flatMap((r) => r.codes);
  // the seed ties already_exists to class U and version_conflict to class I (section 4)
  return [...new Set(codes)].filter(
    (code) =>
      !(code === 'already_exists' && op.retryClass !== 'U') && !(code === 'version_conflict' && op.retryClass !== 'I'),
  );
}

/**
 * The `@throws` lines: every error class this call can reject with, in the order a caller meets
 * them. The call's own codes get a line each; the access refusals, and the three ways of getting
 * no answer, are one line each naming their classes.
 */
export function throwsTags(op: OperationModel): DocText[] {
  const codes = errorCodes(op);
  const lines: DocText[] = [doc`@throws {ValidationError} The params break a rule of the spec; nothing is sent.`];
  const access = codes.flatMap((code) => ACCESS_CODES[code] ?? []);
  // with no 401/403 code documented for the call, the revoked credentials are its only access error:
  // a line of their own, not an "Access refused (401, 403…)" the call's documentation never names
  if (access.length)
    lines.push(
      doc`@throws {${[...access, ...(op.auth ? ['CredentialsRevokedError'] : [])].join(' | ')}} Access refused (401, 403; app_deleted and tenant_closed end every later call).`,
    );
  else if (op.auth)
    lines.push(
      doc`@throws {CredentialsRevokedError} The service said app_deleted or tenant_closed: every later call fails at once.`,
    );
  for (const code of codes) {
    const known = CODE_CLASSES[code];
    if (known) lines.push(doc`@throws {${known.name}} ${known.when}`);
  }
  if (codes.includes('rate_limited'))
    lines.push(
      doc`@throws {RateLimitedError} 429 rate_limited after \`maxRetries\` (or a Retry-After over \`maxRetryAfterMs\`).`,
    );
  lines.push(doc`@throws {ApiError} Any other error answer.`);
  lines.push(
    doc`@throws {ConnectionError | TimeoutError | AbortError} No answer (no connection after class ${op.retryClass}'s resends, \`timeoutMs\` or \`deadlineMs\` passed, or your \`signal\`).`,
  );
  return lines;
}

type Components = ReadonlyMap<string, JsonSchema>;

/** A value for a required field: the spec's example, default, const or first enum value, else a placeholder of its type. */
function sampleValue(
  field: FieldModel | undefined,
  schema: JsonSchema | undefined,
  name: string,
  components: Components,
  depth = 0,
): string {
  let s = schema ?? field?.schema ?? {};
  const ref = typeof s.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1] : undefined;
  if (ref !== undefined && depth < 8) s = components.get(ref) ?? {};
  const given =
    Array.isArray(s.examples) && s.examples.length
      ? s.examples[0]
      : 'example' in s
        ? s.example
        : 'default' in s
          ? s.default
          : 'const' in s
            ? s.const
            : Array.isArray(s.enum)
              ? s.enum.find((v: unknown) => v !== null)
              : undefined;
  if (given !== undefined) return jsonLiteral(given);
  const branch = [s.anyOf, s.oneOf, s.allOf].find((b) => Array.isArray(b) && b.length > 0)?.[0];
  if (branch && !s.type) return sampleValue(undefined, branch, name, components, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'integer' || type === 'number') return '1';
  if (type === 'boolean') return 'true';
  if (type === 'array') return `[${sampleValue(undefined, s.items, name, components, depth + 1)}]`;
  if (type === 'object' || s.properties) {
    const required: string[] = Array.isArray(s.required)
      ? s.required.filter((r: unknown): r is string => typeof r === 'string')
      : [];
    const props = required.map(
      (r) => `${propertyKey(r)}: ${sampleValue(undefined, s.properties?.[r], r, components, depth + 1)}`,
    );
    return props.length ? `{ ${props.join(', ')} }` : '{}';
  }
  return jsonLiteral(`<${name}>`);
}

/** `@example` with the call and its required params (values from the spec where it gives them, else `<name>` placeholders). */
export function exampleTag(op: OperationModel, style: 'method' | 'function', components: Components): DocText {
  const fields = [
    ...op.pathParams,
    ...op.queryParams,
    ...op.headerParams,
    ...op.cookieParams,
    ...(op.body?.fields ?? []),
  ].filter((f) => f.required);
  const params = fields.map((f) => `${propertyKey(f.name)}: ${sampleValue(f, undefined, f.name, components)}`);
  const args = params.length ? `{ ${params.join(', ')} }` : op.paramsRequired ? '{}' : '';
  const call =
    style === 'method'
      ? `im.${op.namespace}.${op.methodName}(${args})`
      : `${op.funcName}(im${args ? `, ${args}` : ''})`;
  const line = op.pagination ? `for await (const item of ${call}) console.log(item);` : `const result = await ${call};`;
  return docJoin([doc`@example`, doc`\`\`\`ts`, doc`${line}`, doc`\`\`\``], '\n');
}
