// Copied by im-openapi from templates/runtime/stores/inspectable.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What Node's `util.inspect` (and so `console.log`) shows of a store: its `toString()`.
 *
 * Why a base class and not a `[Symbol.for('nodejs.util.inspect.custom')]()` method on each store: a
 * bundler keeps a class with a computed method key even when nothing uses it (esbuild cannot prove
 * the key free of side effects), while it drops an unused subclass of a class in the same bundle.
 * RedisTokenStore, exported by the main entry beside ImClient, was 6.4 KB of every minified ImClient
 * app that never used it (issue 33).
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class Inspectable {
  [INSPECT](): string {
    return this.toString();
  }
}
