/**
 * The generated package of the constructs fixture type-checks (tsc, strict), and the wire types
 * say what the runtime does: the 201/200 union narrows on status, the contentType option picks
 * the params type, binary/text/empty answers have their types, wrong uses do not compile.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';
import { generateConstructsPackage } from './wire-package.js';

const CONSUMER = `
import { Readable } from 'node:stream';
import { ImClient, type BinaryResponse } from './src/index.js';
declare const im: ImClient;

export async function uses(): Promise<void> {
  const r = await im.wire.putThing({ thing_id: 'x' });
  if (r.status === 201) {
    const created: string = r.data.created_at;
    void created;
  } else {
    const label: string = r.data.label;
    void label;
  }
  // @ts-expect-error created_at is a string on the 201 answer only (the 200 one is open: unknown)
  const notNarrowed: string = r.data.created_at;
  void notNarrowed;

  const media: BinaryResponse = await im.wire.download({ media_id: 'm' });
  const bytes: Uint8Array = await media.bytes();
  const stream: ReadableStream<Uint8Array> = media.stream();
  const type: string | undefined = media.contentType;
  void [bytes, stream, type];
  const none: void = await im.wire.deleteThing({ thing_id: 't' });
  const text: string = await im.wire.getText();
  void [none, text];

  await im.wire.postEither({ name: 'n', mode: 'a' });
  await im.wire.postEither({ body: 'text' }, { contentType: 'text/plain' });
  await im.wire.postEither({ body: new Uint8Array(1) }, { contentType: 'application/octet-stream' });
  // @ts-expect-error text/plain takes a string \`body\`, not the JSON fields
  await im.wire.postEither({ name: 'n' }, { contentType: 'text/plain' });
  // @ts-expect-error application/xml is not a listed media type
  await im.wire.postEither({ name: 'n' }, { contentType: 'application/xml' });
  // @ts-expect-error the default (JSON) needs \`name\`
  await im.wire.postEither({ body: 'x' });

  await im.wire.uploadRaw({ name: 'x', body: Readable.from([Buffer.from('a')]) });
  await im.wire.uploadRaw({ name: 'x', body: new Blob(['a']) });
  await im.wire.uploadRaw({ name: 'x', body: Buffer.from('a') });
  // @ts-expect-error a string is not a binary body
  await im.wire.uploadRaw({ name: 'x', body: 'text' });
  await im.wire.postText({ body: 'hello' });
  await im.wire.uploadForm({ file: { data: new Blob([]), filename: 'a.png' }, extras: [new Uint8Array(1)], caption: 'c', meta: { w: 1 } });
  // @ts-expect-error a file part is bytes, not a string
  await im.wire.uploadForm({ file: 'not bytes', caption: 'c' });
  await im.wire.submitForm({ name: 'n', tags: ['a'] });

  await im.wire.headers({ 'X-Trace-Id': 'abc', 'X-Tags': ['a'], session: 's', prefs: ['p'] });
  // @ts-expect-error the X-Trace-Id header parameter is required
  await im.wire.headers({ session: 's' });
  await im.wire.queryStyles({ deep: { R: 1 }, pipe_arr: ['a'], maybe_empty: '' });
  await im.wire.oldOp();
}
`;

describe('the generated constructs package type-checks', () => {
  it('tsc --noEmit (strict) over src/ and a consumer of the wire constructs', async () => {
    const dir = await generateConstructsPackage();
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(dir, 'tsconfig.consumer.json'),
      JSON.stringify({
        extends: './tsconfig.esm.json',
        compilerOptions: { noEmit: true, rootDir: '.', typeRoots: [join(repoRoot, 'node_modules/@types')] },
        include: ['src', 'consumer.ts'],
      }),
    );
    let output = '';
    try {
      execFileSync(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.consumer.json')], {
        encoding: 'utf8',
        timeout: 120_000,
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(output).toBe('');
  }, 150_000);
});
