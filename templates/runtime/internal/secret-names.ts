/**
 * Which field names look like they hold a secret (internal, unstable): their values are never
 * echoed. A module of its own because the lazily loaded issue wording (validation-issues.ts) needs
 * it too: shared through this one line, the redactor stays in the chunk loaded at start instead of
 * becoming a chunk of its own (issue 18: each chunk is compressed on its own).
 */
const SECRET_NAME = /secret|password|passwd|token|authorization|api[-_]?key|credential|private[-_]?key|ticket/i;

export function isSecretLookingName(name: string): boolean {
  return SECRET_NAME.test(name);
}
