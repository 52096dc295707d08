/**
 * A spec the generator refuses. Each problem names where (a JSON pointer into the spec), the
 * rule, what is wrong and, when there is one, the fix. One SpecError carries every problem found,
 * so a spec author sees them all at once; `pointer` and `rule` are those of the first.
 * `formatSpecError` (spec-location.ts) turns pointers into file:line:col for people.
 */
export interface SpecProblem {
  pointer: string;
  rule: string;
  message: string;
  /** A fix or a nearest-name suggestion ("did you mean x-pagination?"). */
  hint?: string;
  /** The spec file, when it is not the OpenAPI spec being generated (e.g. the callbacks spec). */
  file?: string;
}

export class SpecError extends Error {
  readonly problems: readonly SpecProblem[];

  constructor(pointer: string, rule: string, detail: string, hint?: string) {
    super(problemLine({ pointer, rule, message: detail, ...(hint ? { hint } : {}) }));
    this.name = 'SpecError';
    this.problems = [{ pointer, rule, message: detail, ...(hint ? { hint } : {}) }];
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
    const error = new SpecError(first.pointer, first.rule, first.message, first.hint);
    (error as { problems: readonly SpecProblem[] }).problems = problems;
    error.message = problems.length === 1 ? problemLine(first) : `${problems.length} problems:\n${problems.map(problemLine).join('\n')}`;
    return error;
  }
}

function problemLine(p: SpecProblem): string {
  return `spec refused at ${p.pointer || '/'}: ${p.rule}: ${p.message}${p.hint ? ` (${p.hint})` : ''}`;
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

export function pointerOf(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
