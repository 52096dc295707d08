// Redocly CLI plugin: the spec lint reads the spec it is given and nothing else (issue 25).
//
// Redocly resolves every `$ref` before any rule runs: it fetches a URL with the global `fetch`
// and reads a relative path with `fs.promises.readFile`, wherever it points (a spec edit in a
// pull request could make CI fetch a URL or read /etc/passwd). Loaded with the config, before
// any document, this plugin puts a guard on both:
// - `fetch` refuses every URL;
// - `fs.promises.readFile`, given a path, reads only the files named on the command line and the
//   files under the repository's spec/ folder.
// A refused read becomes Redocly's own "Can't resolve $ref" error carrying our reason. The rule
// `im-openapi/local-refs` also names each `$ref` that leaves the document, with the fix, as
// `npm run generate` refuses it (scripts/lint-spec.ts checks the same before Redocly starts).
import { existsSync, promises, realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// real paths: a symlink under spec/ that points elsewhere is elsewhere
const real = (path) => (existsSync(path) ? realpathSync(path) : resolve(path));
const specDir = real(resolve(dirname(fileURLToPath(import.meta.url)), '../../spec'));
const named = new Set(
  process.argv
    .slice(2)
    .filter((a) => !a.startsWith('-') && existsSync(a))
    .map(real),
);
const REFUSAL =
  'im-openapi reads only the spec itself: a $ref to another file or a URL is not followed (copy what it points at into components)';

const readable = (path) => {
  const full = real(path.startsWith('file:') ? fileURLToPath(path) : path);
  return named.has(full) || full.startsWith(specDir + sep);
};

if (!globalThis.__imOpenapiLocalRefsGuard) {
  globalThis.__imOpenapiLocalRefsGuard = true;
  const readFile = promises.readFile;
  // Redocly reads a referenced file by its path (a string); Node's module loader reads modules by
  // file: URL objects, which pass (the plugins and Redocly's own chunks load that way).
  promises.readFile = function guardedReadFile(path, ...rest) {
    if (typeof path === 'string' && !readable(path))
      return Promise.reject(new Error(`${REFUSAL}; refused to read ${path}`));
    return readFile.call(this, path, ...rest);
  };
  globalThis.fetch = async (url) => {
    throw new Error(`${REFUSAL}; refused to fetch ${String(url?.url ?? url)}`);
  };
}

/** Every `$ref` whose value does not start with `#`, by walking the document as written. */
function localRefsRule() {
  return {
    Root: {
      enter(root, ctx) {
        const walk = (node, path) => {
          if (!node || typeof node !== 'object') return;
          for (const [key, value] of Object.entries(node)) {
            if (key === '$ref' && !Array.isArray(node) && typeof value === 'string' && !value.startsWith('#')) {
              ctx.report({
                message: `external-ref: $ref ${JSON.stringify(value)} points outside this document; ${REFUSAL}`,
                location: ctx.location.child([...path, key]),
              });
            } else walk(value, [...path, Array.isArray(node) ? Number(key) : key]);
          }
        };
        walk(root, []);
      },
    },
  };
}

export default function imOpenapiLocalRefsPlugin() {
  return { id: 'im-openapi-refs', rules: { oas3: { 'local-refs': localRefsRule } } };
}
