/** A spec the generator refuses: names where (a JSON pointer into the spec) and which rule. */
export class SpecError extends Error {
  constructor(
    readonly pointer: string,
    readonly rule: string,
    detail: string,
  ) {
    super(`spec refused at ${pointer || '/'}: ${rule}: ${detail}`);
    this.name = 'SpecError';
  }
}

export function pointerOf(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
