// Copied by im-openapi from templates/runtime/testing/errors.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The error answers of the fake: the body of seed 000 §2.2 with the codes and statuses of §7.
 * The statuses of already_exists, not_found and version_conflict are not shown by the seed:
 * the fake answers 409, 404 and 409 (FAKE_ASSUMPTIONS).
 */

/** Statuses the fake uses for the codes the seed names without one (an assumption, documented). */
export const ASSUMED_STATUS = { already_exists: 409, not_found: 404, version_conflict: 409 } as const;

/** An error answer raised by an operation handler; the fake writes it as the seed's error body. */
export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'FakeApiError';
  }
}

export function errorBody(
  code: string,
  message: string,
  requestId: string,
  details?: Record<string, unknown>,
): { error: Record<string, unknown> } {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}

export const notFound = (what: string, id: string): FakeApiError =>
  new FakeApiError(ASSUMED_STATUS.not_found, 'not_found', `${what} ${JSON.stringify(id)} not found`);
export const alreadyExists = (what: string, id: string): FakeApiError =>
  new FakeApiError(ASSUMED_STATUS.already_exists, 'already_exists', `${what} ${JSON.stringify(id)} already exists`);
export const versionConflict = (message: string): FakeApiError =>
  new FakeApiError(ASSUMED_STATUS.version_conflict, 'version_conflict', message);
/**
 * 400 invalid_argument naming the field and what is wrong with it (`details.field`,
 * `details.problem`: the fake's own details; `details.rule` is the seed's for callback URLs only).
 */
export const invalidArgument = (field: string, problem: string): FakeApiError =>
  new FakeApiError(400, 'invalid_argument', `${field}: ${problem}`, { field, problem });
