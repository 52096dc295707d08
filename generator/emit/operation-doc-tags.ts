/**
 * The `@example` and `@throws` tags of an operation's doc comment (issue 31): a call a user can
 * copy, and each error class the call can reject with, from the spec's error responses and the
 * operation's retry class. Spec values reach the text through spec-text.ts.
 */
import type { FieldModel, JsonSchema, OperationModel } from '../model.js';
import { doc, docJoin, jsonLiteral, propertyKey, type DocText } from './spec-text.js';

/** The error class the client makes of each code the seed gives (templates/runtime/core/error-from-response.ts). */
const CODE_CLASSES: Record<string, { name: string; when: string }> = {
  invalid_argument: {
    name: 'InvalidArgumentError',
    when: '400 invalid_argument: the service refused an argument (see `details`).',
  },
  invalid_client: {
    name: 'InvalidClientError',
    when: '401 invalid_client: wrong Client ID or Client Secret, or the application does not exist.',
  },
  unauthenticated: {
    name: 'UnauthenticatedError',
    when: '401 unauthenticated: the App Token was refused again after one new exchange.',
  },
  permission_denied: {
    name: 'PermissionDeniedError',
    when: "403 permission_denied: the token's application differs from the path.",
  },
  ip_not_allowed: {
    name: 'IpNotAllowedError',
    when: "403 ip_not_allowed: this server's IP is not in the application's allowlist.",
  },
  tenant_unavailable: { name: 'TenantUnavailableError', when: '403 tenant_unavailable: the tenant is suspended.' },
  app_unavailable: {
    name: 'AppUnavailableError',
    when: '403 app_unavailable: the application is disabled or suspended.',
  },
  rate_limited: {
    name: 'RateLimitedError',
    when: '429 rate_limited, once `maxRetries` are used up or Retry-After asks for more than `maxRetryAfterMs` (the error carries `retryAfterMs`).',
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

/** One `@throws` line per error class this call can reject with, in the order a caller meets them. */
export function throwsTags(op: OperationModel): DocText[] {
  const lines: DocText[] = [
    doc`@throws {ValidationError} The params break a rule of the spec (the error names the field and the rule); nothing is sent.`,
  ];
  const seen = new Set<string>();
  for (const response of op.errorResponses) {
    if (response.status === 'default') continue;
    for (const code of response.codes) {
      const known = CODE_CLASSES[code];
      if (!known || seen.has(known.name)) continue;
      // the seed ties already_exists to class U and version_conflict to class I (section 4)
      if (
        (code === 'already_exists' && op.retryClass !== 'U') ||
        (code === 'version_conflict' && op.retryClass !== 'I')
      )
        continue;
      seen.add(known.name);
      lines.push(doc`@throws {${known.name}} ${known.when}`);
    }
  }
  if (op.auth)
    lines.push(
      doc`@throws {CredentialsRevokedError} The service said app_deleted or tenant_closed: every later call fails at once.`,
    );
  lines.push(doc`@throws {ApiError} Any other error answer (\`status\`, \`code\`, \`requestId\`, \`details\`).`);
  lines.push(doc`@throws {ConnectionError} No connection, after the resends retry class ${op.retryClass} allows.`);
  lines.push(
    doc`@throws {TimeoutError} No answer within \`timeoutMs\` (per attempt) or \`deadlineMs\` (the whole call).`,
  );
  lines.push(doc`@throws {AbortError} Your \`signal\` aborted the call.`);
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
