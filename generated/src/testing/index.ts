// Copied by im-openapi from templates/runtime/testing/index.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The fake service (`im-server-sdk/testing`), hand-written runtime: the package entry binds the
 * generated catalog and exports `createFakeService`. Kept out of the main entry's bundle.
 */
export * from './types.js';
export { createFakeServiceWith } from './server.js';
export { FAKE_ASSUMPTIONS } from './assumptions.js';
export type { FakeAssumption } from './assumptions.js';
export { runImFake } from './cli.js';
export { PART_UPLOAD } from './ops/media.js';
export { ASSUMED_STATUS } from './errors.js';
