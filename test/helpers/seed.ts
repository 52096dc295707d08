/** Reads the seed documents in ../shared/seeds so tests can check the specs against them. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const restSeedPath = fileURLToPath(new URL('../../../shared/seeds/000_390cc5911b5e99fc.txt', import.meta.url));
export const callbackSeedPath = fileURLToPath(
  new URL('../../../shared/seeds/001_232788093b8ab2b9.txt', import.meta.url),
);

/** The text of one `## `/`### ` section, up to the next heading of the same or a higher level. */
export function seedSection(text: string, heading: RegExp): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && heading.test(l));
  if (start < 0) throw new Error(`seed section ${heading} not found`);
  const level = lines[start]!.match(/^#+/)![0].length;
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** Rows of every markdown table in `text`, as arrays of trimmed cells, header and rule rows removed. */
export function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('|')) continue;
    const next = lines[i + 1] ?? '';
    if (/^\|[-| ]+\|$/.test(next)) {
      i++;
      continue;
    } // header row followed by its rule
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

export interface SeedOperationRow {
  method: string;
  path: string;
  op: string | null;
  retryClass: string | null;
  /** The raw class cell, e.g. "D; N when online_only is true". */
  classCell: string | null;
  /** The "Inputs named" cell (4.2–4.12), "" when the seed names none; null for 4.1 and 4.13. */
  inputs: string | null;
  /** The "Meaning" cell of a 4.13 RTC channel row, e.g. "create channel (201 when created)". */
  meaning: string | null;
  section: string;
}

/** Every method+path row of REST seed section 4 (4.1 from its prose, 4.2–4.13 from their tables). */
export function restSeedOperations(): SeedOperationRow[] {
  const text = readFileSync(restSeedPath, 'utf8');
  const endpoints = seedSection(text, /^## 4\. Endpoints/);
  const out: SeedOperationRow[] = [];
  const token = endpoints.match(/^(POST) (\/\{org_name\}\/\{app_name\}\/token)/m);
  const tokenName = endpoints.match(/The operation name is ([\w.]+)\./);
  if (!token || !tokenName) throw new Error('token exchange not found in seed 4.1');
  out.push({
    method: token[1]!,
    path: token[2]!,
    op: tokenName[1]!,
    retryClass: null,
    classCell: null,
    inputs: null,
    meaning: null,
    section: '4.1',
  });
  for (const section of endpoints.split(/^### /m).slice(1)) {
    const number = section.match(/^(4\.\d+)/)?.[1];
    if (!number || number === '4.1') continue;
    for (const cells of tableRows(section)) {
      const m = cells[0]!.match(/^(GET|POST|PUT|PATCH|DELETE) (\S+)$/);
      if (!m) continue;
      const rtc = cells.length === 2;
      out.push({
        method: m[1]!,
        path: `/{org_name}/{app_name}${m[2]}`,
        op: rtc ? null : cells[1]!,
        classCell: rtc ? null : cells[2]!,
        retryClass: rtc ? null : cells[2]!.match(/^[QIUDN]/)![0],
        inputs: rtc ? null : (cells[3] ?? ''),
        meaning: rtc ? cells[1]! : null,
        section: number,
      });
    }
  }
  return out;
}
