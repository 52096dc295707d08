/**
 * Emits the fake service's entry (`im-server-sdk/testing`, issue 30): `src/testing.ts` binds the
 * hand-written fake (templates/runtime/testing/) to the generated operation table and to
 * `src/testing/catalog.ts`, which holds per operation the name of its response schema and a body
 * valid against it (the spec's example where the schema has one, else a minimal value built from
 * the schema); and the `im-fake` bin. Every spec value is written with JSON.stringify.
 */
import type { ApiModel, JsonSchema } from '../model.js';
import { doNotEditHeader } from './source-file.js';
import { jsonLiteral, stringLiteral } from './spec-text.js';

const REF = /^#\/components\/schemas\/(.+)$/;

function resolver(model: ApiModel): (schema: JsonSchema) => JsonSchema {
  const byName = new Map(model.schemas.map((s) => [s.name, s.schema]));
  return (schema) => {
    let s = schema;
    for (let i = 0; i < 20 && typeof s?.$ref === 'string'; i++) s = byName.get(REF.exec(s.$ref)?.[1] ?? '') ?? {};
    return s;
  };
}

/** A value valid against `schema`: its first example, else the least that satisfies it. */
export function responseSample(model: ApiModel, schema: JsonSchema | boolean | undefined, depth = 0): unknown {
  if (schema === undefined || typeof schema === 'boolean' || depth > 16) return {};
  const s = resolver(model)(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branch = s.anyOf ?? s.oneOf;
  if (Array.isArray(branch)) return responseSample(model, branch[0], depth + 1);
  if (Array.isArray(s.allOf))
    return Object.assign({}, ...s.allOf.map((part: JsonSchema) => responseSample(model, part, depth + 1)));
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['object'];
  switch (types.find((t) => t !== 'null') ?? 'null') {
    case 'null':
      return null;
    case 'string':
      return s.format === 'date-time' ? '2025-01-31T12:00:00.000Z' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => responseSample(model, s.items, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) {
        // a nullable page field (next_cursor) is null: the walk ends
        const prop = resolver(model)(s.properties?.[name] ?? {});
        const nullable = Array.isArray(prop.type) && prop.type.includes('null');
        out[name] = nullable ? null : responseSample(model, prop, depth + 1);
      }
      return out;
    }
  }
}

function schemaName(schema: JsonSchema): string {
  return typeof schema.$ref === 'string' ? (REF.exec(schema.$ref)?.[1] ?? schema.$ref) : 'inline';
}

export function emitTestingEntry(model: ApiModel, packageVersion: string): Map<string, string> {
  const header = doNotEditHeader(model.source);
  const files = new Map<string, string>();
  const entries = [...model.operations]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(
      (op) =>
        `  ${stringLiteral(op.id)}: { schema: ${stringLiteral(schemaName(op.response))}, sample: ${jsonLiteral(responseSample(model, op.response))} },`,
    );
  files.set(
    'src/testing/catalog.ts',
    `${header}/** Per operation: its response schema's name and a body valid against it (for the fake service). */\nimport type { FakeResponseData } from './types.js';\n\nexport const fakeResponses: Readonly<Record<string, FakeResponseData>> = {\n${entries.join('\n')}\n};\n`,
  );
  files.set(
    'src/testing.ts',
    `${header}// The fake service for your tests (hand-written runtime in ./testing/, bound here to the generated operation table).
import { operations } from './operations.js';
import { fakeResponses } from './testing/catalog.js';
import { createFakeServiceWith, type FakeService, type FakeServiceOptions } from './testing/index.js';

export * from './testing/index.js';

/**
 * A stateful fake of the service on 127.0.0.1 for your tests: every operation answers as the spec
 * says, with state (create, then get and list see it), faults on demand or at random, and signed
 * callbacks to your receiver. Point a client at it with \`new ImClient(fake.clientOptions)\`.
 */
export function createFakeService(options?: FakeServiceOptions): Promise<FakeService> {
  return createFakeServiceWith({ operations: Object.values(operations), responses: fakeResponses }, options);
}
`,
  );
  files.set(
    'src/bin/im-fake.ts',
    `#!/usr/bin/env node\n${header}import { createFakeService, runImFake } from '../testing.js';\n\nrunImFake(process.argv.slice(2), createFakeService, { version: ${stringLiteral(packageVersion)} }).then(\n  (code) => process.exit(code),\n  (err: unknown) => {\n    console.error(\`im-fake: \${err instanceof Error ? err.message : String(err)}\`);\n    process.exit(1);\n  },\n);\n`,
  );
  return files;
}
