/** Prints every stacked or orphan doc block in the hand-written TypeScript (scripts/lib/doc-blocks.ts); exits 1 when there is one. */
import { fileURLToPath } from 'node:url';
import { findDocBlockProblems } from './lib/doc-blocks.js';

const problems = findDocBlockProblems(fileURLToPath(new URL('..', import.meta.url)));
for (const p of problems) console.log(`${p.at} ${p.rule}: ${p.message}`);
console.log(`${problems.length} doc block problem(s)`);
process.exitCode = problems.length ? 1 : 0;
