/** Moved to contract/operation-entry.ts (shared with the generator); runtime and generated code import it here. */
export * from '../contract/operation-entry.js';
