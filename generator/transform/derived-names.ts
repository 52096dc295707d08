/**
 * Every type name the generator derives (`<Stem>Params`, `<Stem>Result`, `<Stem>Page`,
 * `<Stem>Item`, `<X>Writable`, toggle helper params) is checked against the component schema
 * names and against each other: the package index re-exports them all with `export type *`, and
 * two modules exporting one name do not compile (TS2308).
 *
 * A collision is refused (SpecError `name-collision`) naming both sources and suggesting a
 * rename. Not renamed automatically: a rename would change a public type name of the package
 * the day a schema is added, silently breaking users; the spec author picks the name once.
 */
import type { ApiModel } from '../model.js';
import { SpecError, pointerOf } from '../spec-error.js';
import { viewDependentSchemas, writableName } from './views.js';

interface Source {
  pointer: string;
  what: string;
}

export function checkDerivedNames(model: ApiModel): void {
  const taken = new Map<string, Source>();
  const claim = (name: string, source: Source) => {
    const other = taken.get(name);
    if (other) {
      throw new SpecError(
        source.pointer,
        'name-collision',
        `the name ${name} is both ${other.what} (${other.pointer}) and ${source.what}`,
        `rename one of them (e.g. the schema to ${name}Schema, or the operationId) so that every exported name is distinct`,
      );
    }
    taken.set(name, source);
  };
  for (const { name } of model.schemas) claim(name, { pointer: pointerOf('components', 'schemas', name), what: `the component schema ${name}` });
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  for (const name of viewDependentSchemas(components)) {
    claim(writableName(name), { pointer: pointerOf('components', 'schemas', name), what: `the write view the generator derives from schema ${name} (it has readOnly/writeOnly fields)` });
  }
  // Resource classes and ImClient are not checked: the index exports them by name, which wins
  // over `export type *` without an error (the real spec's schema Presence is shadowed that way).
  for (const ns of model.namespaces) {
    for (const op of ns.operations) {
      const at = pointerOf('paths', op.specPath, op.method.toLowerCase());
      const derived = (suffix: string) => ({ pointer: `${at}/operationId`, what: `the ${suffix} type the generator derives from operation ${op.id}` });
      claim(`${op.typeStem}Params`, derived('params'));
      claim(op.pagination ? `${op.typeStem}Page` : `${op.typeStem}Result`, derived(op.pagination ? 'page' : 'result'));
      if (op.pagination) claim(`${op.typeStem}Item`, derived('item'));
    }
    for (const h of ns.helpers) {
      if (h.kind === 'toggle') claim(`${h.typeStem}Params`, { pointer: '', what: `the params type of helper ${h.namespace}.${h.methodName} (${h.source})` });
    }
  }
}
