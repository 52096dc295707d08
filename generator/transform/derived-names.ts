/**
 * Every type name the generator derives (`<Stem>Params`, `<Stem>Result`, `<Stem>Page`,
 * `<Stem>Item`, `<X>Writable`, toggle helper params) is checked against the component schema
 * names and against each other: the package index re-exports them all with `export type *`, and
 * two modules exporting one name do not compile (TS2308).
 *
 * An operation's derived names never take a name already taken (a component schema's, an earlier
 * operation's): its type stem takes `Op` (then `Op2`, …), with a warning at the operationId
 * (issue 26: suffix, not refusal; a schema added later can rename an operation's types, and the
 * change report shows it). The write views and helper params are still refused on a collision
 * (SpecError `name-collision`) naming both sources.
 */
import type { ApiModel } from '../model.js';
import { SpecError, pointerOf } from '../spec-error.js';
import { viewDependentSchemas, writableName } from './views.js';

interface Source {
  pointer: string;
  what: string;
}

/** Returns every exported type name it saw (schemas, views, derived), for names derived later (webhook payloads). */
export function checkDerivedNames(model: ApiModel): Set<string> {
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
  for (const { name } of model.schemas)
    claim(name, { pointer: pointerOf('components', 'schemas', name), what: `the component schema ${name}` });
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  for (const name of viewDependentSchemas(components)) {
    claim(writableName(name), {
      pointer: pointerOf('components', 'schemas', name),
      what: `the write view the generator derives from schema ${name} (it has readOnly/writeOnly fields)`,
    });
  }
  // Resource classes and ImClient are not checked: the index exports them by name, which wins
  // over `export type *` without an error (the real spec's schema Presence is shadowed that way).
  for (const ns of model.namespaces) {
    for (const op of ns.operations) {
      const at = pointerOf('paths', op.specPath, op.method.toLowerCase());
      const derived = (suffix: string) => ({
        pointer: `${at}/operationId`,
        what: `the ${suffix} type the generator derives from operation ${op.id}`,
      });
      const namesOf = (stem: string) =>
        [
          [`${stem}Params`, 'params'],
          [op.pagination ? `${stem}Page` : `${stem}Result`, op.pagination ? 'page' : 'result'],
          ...(op.pagination ? [[`${stem}Item`, 'item']] : []),
        ] as const;
      // a derived name never takes a spec's (or an earlier operation's) name: the stem takes Op, Op2…
      const original = op.typeStem;
      for (let n = 1; namesOf(op.typeStem).some(([name]) => taken.has(name)); n++)
        op.typeStem = `${original}Op${n === 1 ? '' : n}`;
      if (op.typeStem !== original) {
        const clash = namesOf(original).find(([name]) => taken.has(name))![0];
        model.warnings?.push({
          pointer: `${at}/operationId`,
          rule: 'derived-name-suffixed',
          message: `${op.id}: ${clash} is already ${taken.get(clash)!.what}: the operation's types are named ${op.typeStem}Params, ${op.typeStem}${op.pagination ? 'Page' : 'Result'}…`,
        });
      }
      for (const [name, suffix] of namesOf(op.typeStem)) claim(name, derived(suffix));
    }
    for (const h of ns.helpers) {
      if (h.kind === 'toggle')
        claim(`${h.typeStem}Params`, {
          pointer: '',
          what: `the params type of helper ${h.namespace}.${h.methodName} (${h.source})`,
        });
    }
  }
  return new Set(taken.keys());
}
