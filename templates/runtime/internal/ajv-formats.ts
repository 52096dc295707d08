/** Moved to contract/ajv-formats.ts (shared with the generator); generated validators import it here. */
export * from '../contract/ajv-formats.js';
