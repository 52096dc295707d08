/**
 * A spec the generator (or the spec lint) refuses. Each problem names where (a JSON pointer into
 * the spec, and the file when it is not the OpenAPI spec), the rule, what is wrong and the fix:
 * every refusal a spec author meets is one of these, never a stack trace. One SpecError carries
 * every problem found, so a spec author sees them all at once; `pointer` and `rule` are those of
 * the first. `formatSpecError` (spec-location.ts) turns pointers into file:line:col for people.
 */
export interface SpecProblem {
  pointer: string;
  rule: string;
  message: string;
  /** The fix, or a nearest-name suggestion ("did you mean x-pagination?"). */
  hint: string;
  /** The spec file, when it is not the OpenAPI spec being generated (e.g. the callbacks spec). */
  file?: string;
  /** Line and column when no pointer can say where (a YAML syntax error). */
  position?: { line: number; col: number };
}

export class SpecError extends Error {
  readonly problems: readonly SpecProblem[];

  constructor(pointer: string, rule: string, detail: string, hint: string, file?: string) {
    const problem: SpecProblem = { pointer, rule, message: detail, hint, ...(file ? { file } : {}) };
    super(problemLine(problem));
    this.name = 'SpecError';
    this.problems = [problem];
  }

  get pointer(): string {
    return this.problems[0]!.pointer;
  }

  get rule(): string {
    return this.problems[0]!.rule;
  }

  /** One error for several problems (at least one). */
  static of(problems: readonly SpecProblem[]): SpecError {
    const first = problems[0]!;
    const error = new SpecError(first.pointer, first.rule, first.message, first.hint, first.file);
    (error as { problems: readonly SpecProblem[] }).problems = problems;
    error.message =
      problems.length === 1
        ? problemLine(first)
        : `${problems.length} problems:\n${problems.map(problemLine).join('\n')}`;
    return error;
  }
}

function problemLine(p: SpecProblem): string {
  return printable(
    `spec refused at ${p.file ? `${p.file} ` : ''}${p.pointer || '/'}: ${p.rule}: ${p.message} (fix: ${p.hint})`,
  );
}

/**
 * Text for a terminal or a CI log: control characters (an ANSI escape in a spec name would
 * recolour or rewrite the log), line separators and bidirectional controls shown as `\uXXXX`.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`,
  );
}

/** A spec value quoted for a message: JSON, cut after `max` characters (a name may be megabytes long). */
export function quoted(value: unknown, max = 80): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…(${text.length} characters)` : text;
}

/** Runs `step`; a SpecError it throws joins `problems` instead of ending the run. */
export function collectSpecErrors<T>(problems: SpecProblem[], step: () => T): T | undefined {
  try {
    return step();
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    problems.push(...error.problems);
    return undefined;
  }
}

/** One JSON Pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`); the one escaper of the generator and its scripts. */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...segments: (string | number)[]): string {
  return segments.map((s) => `/${pointerSegment(s)}`).join('');
}
