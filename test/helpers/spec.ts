/** Loads the committed specs for tests. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { repoRoot } from './seed.js';

export function loadYaml(relativePath: string): any {
  return parse(readFileSync(`${repoRoot}${relativePath}`, 'utf8'));
}

export interface Mark {
  pointer: string;
  key: 'x-assumed' | 'x-not-documented';
  value: unknown;
}

/** Every x-assumed and x-not-documented mark in a document, with its JSON pointer. */
export function provenanceMarks(node: unknown, pointer = ''): Mark[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => provenanceMarks(v, `${pointer}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const marks: Mark[] = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key === 'x-assumed' || key === 'x-not-documented') marks.push({ pointer: here, key, value });
    marks.push(...provenanceMarks(value, here));
  }
  return marks;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

export interface SpecOperation {
  method: string;
  path: string;
  operation: any;
}

export function specOperations(doc: any): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of HTTP_METHODS)
      if (item[method]) out.push({ method: method.toUpperCase(), path, operation: item[method] });
  }
  return out;
}
