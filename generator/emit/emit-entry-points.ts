/** Emits `src/client.ts` (ImClient with every namespace), `src/index.ts` and `src/funcs/index.ts`. */
import { Scope, StructureKind, type StatementStructures } from 'ts-morph';
import type { ApiModel } from '../model.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { fileStem, jsDocs, stringLiteral } from './spec-text.js';

/** `packageVersion`: the package's own version, printed by `im-callbacks --version`. */
export function emitEntryPoints(model: ApiModel, packageVersion: string = model.version): Map<string, string> {
  const header = doNotEditHeader(model.source);
  return new Map([
    ['src/client.ts', header + renderSource(clientStatements(model))],
    ['src/index.ts', header + rootIndex(model)],
    ['src/funcs/index.ts', header + funcsIndex(model)],
    // The bin of the package: npx im-callbacks send --url http://127.0.0.1:PORT/path --kind event
    ['src/bin/im-callbacks.ts', binFile(header, packageVersion)],
  ]);
}

/** ImClient: ImCore with one resource namespace per op prefix, and fromEnv. */
function clientStatements(model: ApiModel): (string | StatementStructures)[] {
  return [
    `import { ImCore } from './core/im-core.js';`,
    `import type { ClientOptions } from './core/options.js';`,
    `import { clientOptionsFromEnv, type Env } from './core/from-env.js';`,
    ...model.namespaces.map((ns) => `import { ${ns.className} } from './resources/${fileStem(ns.name)}.js';`),
    {
      kind: StructureKind.Class,
      name: 'ImClient',
      isExported: true,
      extends: 'ImCore',
      docs: jsDocs(
        "The client of the messaging service's server-side REST API: one namespace per op prefix.\n\n" +
          'Keep it on the server: it holds the Client Secret and the App Token, which stands for the administrative authority of the whole application.\n\n' +
          "@example\n```ts\nconst im = new ImClient({ baseUrl, appKey: 'org#app', clientId, clientSecret });\nconst user = await im.users.create({ username: 'alice' });\n```",
      ),
      properties: model.namespaces.map((ns) => ({
        name: ns.name,
        type: ns.className,
        isReadonly: true,
        scope: Scope.Public,
      })),
      ctors: [
        {
          parameters: [{ name: 'options', type: 'ClientOptions' }],
          statements: [
            'super(options);',
            ...model.namespaces.map((ns) => `this.${ns.name} = new ${ns.className}(this);`),
          ],
        },
      ],
      methods: [
        {
          name: 'fromEnv',
          isStatic: true,
          docs: jsDocs(
            'A client from the environment: IM_BASE_URL, IM_APP_KEY (`org#app`), IM_CLIENT_ID and IM_CLIENT_SECRET; `overrides` win. A missing variable is a ConfigError naming it. (With the standalone functions: `new ImCore(clientOptionsFromEnv())`.)',
          ),
          parameters: [
            { name: 'overrides', type: 'Partial<ClientOptions>', initializer: '{}' },
            { name: 'env', type: 'Env', hasQuestionToken: true },
          ],
          returnType: 'ImClient',
          statements: ['return new ImClient(clientOptionsFromEnv(overrides, env));'],
        },
      ],
    },
  ];
}

/** The root entry: the client, core, helpers, the operation table and every type. */
function rootIndex(model: ApiModel): string {
  return renderSource([
    `export { ImClient } from './client.js';`,
    `export * from './core/index.js';`,
    `export * from './helpers/index.js';`,
    `export type { OperationSpec, RetryClass, PaginationKind } from './operation.js';`,
    `export { operations } from './operations.js';`,
    `export type * from './types/schemas.js';`,
    // the component schemas reachable as `Schemas.User` as well as flat (`User`); a component named Schemas is renamed (ENTRY_EXPORTS)
    `export type * as Schemas from './types/schemas.js';`,
    ...(model.webhooks.length ? [`export type * from './types/webhooks.js';`] : []),
    ...model.namespaces.map((ns) => `export type * from './types/${fileStem(ns.name)}.js';`),
    ...model.namespaces.map((ns) => `export { ${ns.className} } from './resources/${fileStem(ns.name)}.js';`),
  ]);
}

/** The standalone functions' entry. */
function funcsIndex(model: ApiModel): string {
  return renderSource([
    '// Standalone functions, one per operation, over a core client: an app that calls one\n// operation bundles only that one. ImLeanCore leaves out the features only some apps use\n// (node:http transport, proxy, fleet quota); ImCore has them all.',
    `export { ImLeanCore } from '../core/lean-core.js';`,
    `export { ImCore } from '../core/im-core.js';`,
    `export { clientOptionsFromEnv } from '../core/from-env.js';`,
    ...model.namespaces.map((ns) => `export * from './${fileStem(ns.name)}.js';`),
  ]);
}

function binFile(header: string, packageVersion: string): string {
  return `#!/usr/bin/env node\n${header}${renderSource([
    `import { runImCallbacks } from '../callbacks/cli.js';`,
    `runImCallbacks(process.argv.slice(2), { version: ${stringLiteral(packageVersion)} }).then(` +
      '\n  (code) => process.exit(code),\n  (err: unknown) => {\n    console.error(`im-callbacks: ${err instanceof Error ? err.message : String(err)}`);\n    process.exit(1);\n  },\n);',
  ])}`;
}
