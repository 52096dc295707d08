// Redocly CLI plugin: the spec lint checks every x- extension against spec/extensions.schema.json
// with the generator's own checker (generator/check-extensions.ts), so `npm run lint:spec`, editors
// running Redocly and `npm run generate` refuse the same things, each at file:line:col.
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { checkExtensions } = await import('../../generator/check-extensions.ts');
const schema = JSON.parse(readFileSync(new URL('../../spec/extensions.schema.json', import.meta.url), 'utf8'));

const segmentsOf = (pointer) =>
  pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function extensionsRule() {
  return {
    Root: {
      enter(root, ctx) {
        for (const problem of checkExtensions(root, schema, 'openapi')) {
          ctx.report({
            message: `${problem.rule}: ${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`,
            location: ctx.location.child(segmentsOf(problem.pointer)).key(),
          });
        }
      },
    },
  };
}

export default function imOpenapiPlugin() {
  return { id: 'im-openapi', rules: { oas3: { extensions: extensionsRule } } };
}
