/**
 * im-callbacks from this repository (the package ships the same CLI as the `im-callbacks` bin):
 *   npx tsx scripts/im-callbacks.ts send --url http://127.0.0.1:3000/callbacks --kind event
 */
import { readFileSync } from 'node:fs';
import { runImCallbacks } from '../templates/runtime/callbacks/cli.js';

// The version the package's bin prints: generated/package.json's.
const { version } = JSON.parse(readFileSync(new URL('../generated/package.json', import.meta.url), 'utf8')) as {
  version: string;
};

runImCallbacks(process.argv.slice(2), { version }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`im-callbacks: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
