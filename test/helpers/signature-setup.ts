/**
 * Setup file of the vitest project `signature-standard-webhooks`: the kit's default scheme
 * (`imSignatureV1`, and its WebCrypto twin) becomes the Standard Webhooks scheme of
 * suite-signature.ts, in the runtime and in the generated package's sources, so that every test
 * of the callbacks suite — verify, handlers, frameworks, CLI, simulator, inbox — signs and
 * verifies with it without a line changed. Tests of the im-v1 wire format itself are skipped there
 * (`IM_TEST_SIGNATURE`).
 */
import { vi } from 'vitest';

type NodeSide = typeof import('../../templates/runtime/callbacks/signature-node.js');
type WebSide = typeof import('../../templates/runtime/callbacks/signature-web.js');

vi.mock('../../templates/runtime/callbacks/signature-node.js', async (original) => {
  const m = await original<NodeSide>();
  const { suiteScheme } = await import('./suite-scheme-wrap.js');
  return { ...m, imSignatureV1: suiteScheme(m.standardWebhooksSignature) };
});
vi.mock('../../templates/runtime/callbacks/signature-web.js', async (original) => {
  const m = await original<WebSide>();
  const { suiteScheme } = await import('./suite-scheme-wrap.js');
  return { ...m, imSignatureV1Web: suiteScheme(m.standardWebhooksSignatureWeb) };
});
vi.mock('../../generated/src/callbacks/signature-node.js', async (original) => {
  const m = await original<NodeSide>();
  const { suiteScheme } = await import('./suite-scheme-wrap.js');
  return { ...m, imSignatureV1: suiteScheme(m.standardWebhooksSignature) };
});
vi.mock('../../generated/src/callbacks/signature-web.js', async (original) => {
  const m = await original<WebSide>();
  const { suiteScheme } = await import('./suite-scheme-wrap.js');
  return { ...m, imSignatureV1Web: suiteScheme(m.standardWebhooksSignatureWeb) };
});
