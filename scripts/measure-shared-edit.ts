/**
 * `npx tsx scripts/measure-shared-edit.ts [spec]`: how many generated files one optional field
 * added to the most shared component schema (the one the most operations reach) rewrites, and how
 * many lines. The review cost of a small spec edit (issues 15 and 18). Prints one JSON line.
 */
import { fileURLToPath } from 'node:url';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { measureSharedEdit } from './lib/shared-edit.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { changed: _paths, ...result } = await measureSharedEdit(
  readGeneratorInput(root, process.argv[2] ?? 'spec/openapi.yaml'),
);
console.log(JSON.stringify(result));
