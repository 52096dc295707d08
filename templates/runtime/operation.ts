/** The operation contract lives in contract/operation-spec.ts (shared with the generator); this path is the package's public one. */
export * from './contract/operation-spec.js';
