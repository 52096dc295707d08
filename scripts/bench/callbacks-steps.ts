/**
 * The steps of verifyCallback one by one, for section 6's explanation table: bundled by
 * `callbacks.ts` (esbuild) from the runtime's sources (the very code copied into the package),
 * so that the worker can time each step alone on plain node whatever the package's build layout.
 */
export { readCallbackHeaders } from '../../templates/runtime/callbacks/headers.js';
export { parseSignatureHeader } from '../../templates/runtime/callbacks/signature-scheme.js';
export { matchSignature } from '../../templates/runtime/callbacks/signature-node.js';
