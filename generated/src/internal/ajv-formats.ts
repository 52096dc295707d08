// Copied by im-openapi from templates/runtime/internal/ajv-formats.ts. Do not edit here: edit the template and run `npm run generate`.
/** Moved to contract/ajv-formats.ts (shared with the generator); generated validators import it here. */
export * from '../contract/ajv-formats.js';
