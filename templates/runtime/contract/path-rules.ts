/**
 * The rule the generator adds to every path parameter (besides `minLength: 1`): not `.` or `..`,
 * no `/`, no control characters. One pattern; the runtime's message names the actual problem
 * (internal/validation-issues.ts).
 */
export const PATH_SEGMENT_PATTERN = '^(?!\\.\\.?$)[^/\\u0000-\\u001F\\u007F]*$';
