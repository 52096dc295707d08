// Copied by im-openapi from templates/runtime/internal/operation-entry.ts. Do not edit here: edit the template and run `npm run generate`.
/** Moved to contract/operation-entry.ts (shared with the generator); runtime and generated code import it here. */
export * from '../contract/operation-entry.js';
