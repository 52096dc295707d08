/** Number and table formatting shared by the sections of bench/RESULTS.md (scripts/bench/report.ts). */
import { round } from './lib.js';

export const ms = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '–' : `${Math.round(x).toLocaleString('en-US')} ms`;
export const num = (x: number, d = 0) =>
  round(x, d).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
export const ratio = (a: number, b: number) => (b > 0 ? `${num(a / b, 2)}×` : '–');
export const kib = (b: number) => `${num(b / 1024, 1)} KB`;
export const mib = (x: number) => `${num(x, 1)} MiB`;

export interface TargetRow {
  target: string;
  measured: string;
  pass: boolean | null;
}

export const signedMs = (v: number): string => (v < 0 ? `−${ms(-v)}` : `+${ms(v)}`);

/** Appends lines to the document. */
export type Push = (...lines: string[]) => void;

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
