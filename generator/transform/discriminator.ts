/**
 * `oneOf`/`anyOf` with a `discriminator`: which values of the discriminator property select which
 * branch. Shared by the TypeScript types (each branch's property typed as its literal values) and
 * the validators (the branch is picked by the value; only its errors are reported).
 *
 * - explicit `mapping: { value: '#/components/schemas/X' | 'X' }`;
 * - implicit: a `$ref` branch that no mapping entry names is selected by its component name;
 * - an inline branch (no `$ref`) is selected by the `const`/`enum` of its discriminator property.
 * Pure.
 */
import type { JsonSchema } from '../model.js';
import { SpecError, quoted } from '../spec-error.js';

import { componentNameOf } from './refs.js';

export { componentNameOf };

export interface DiscriminatedBranch {
  /** The discriminator values that select this branch, in spec order. */
  values: string[];
  /** The branch schema as the spec writes it. */
  schema: JsonSchema;
}

export interface Discriminated {
  propertyName: string;
  branches: DiscriminatedBranch[];
  /** Every value, in branch order. */
  values: string[];
}

/** The branch selection of a schema with a discriminator, or undefined when it has none. */
export function discriminatedOf(schema: JsonSchema, components: ReadonlyMap<string, JsonSchema>, where = ''): Discriminated | undefined {
  const disc = schema.discriminator;
  const list: JsonSchema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (!disc || !Array.isArray(list)) return undefined;
  const propertyName: string = disc.propertyName;
  if (typeof propertyName !== 'string') throw new SpecError(`${where}/discriminator`, 'discriminator', 'a discriminator needs a propertyName', 'add propertyName: the name of the property whose value selects the branch');
  const mapping = Object.entries<string>(disc.mapping ?? {}).map(([value, target]) => [value, componentNameOf(target) ?? target] as const);
  const mapped = new Set(mapping.map(([, name]) => name));
  const branches = list.map((branch, i): DiscriminatedBranch => {
    const name = componentNameOf(branch.$ref);
    let values: string[];
    if (name !== undefined) values = mapped.has(name) ? mapping.filter(([, n]) => n === name).map(([v]) => v) : [name];
    else {
      const prop = branch.properties?.[propertyName];
      values = prop && 'const' in prop ? [prop.const] : Array.isArray(prop?.enum) ? prop.enum : [];
    }
    if (!values.length || values.some((v) => typeof v !== 'string')) {
      throw new SpecError(`${where}/${schema.oneOf ? 'oneOf' : 'anyOf'}/${i}`, 'discriminator', `branch ${i} is selected by no string value of ${propertyName}`, 'give it a $ref, a mapping entry, or a const');
    }
    // a branch that pins its property to other values could never be selected (its type would be never)
    const own = name !== undefined ? components.get(name)?.properties?.[propertyName] : undefined;
    const pinned: unknown[] | undefined = own && 'const' in own ? [own.const] : Array.isArray(own?.enum) ? own.enum : undefined;
    const unreachable = pinned && values.find((v) => !pinned.includes(v));
    if (unreachable !== undefined) {
      throw new SpecError(`${where}/${schema.oneOf ? 'oneOf' : 'anyOf'}/${i}`, 'discriminator', `${quoted(unreachable)} selects ${name}, whose ${propertyName} only allows ${pinned!.map((p) => quoted(p)).join(', ')}`, 'make the mapping and the schema agree');
    }
    return { values, schema: branch };
  });
  for (const [value, name] of mapping) {
    if (!components.has(name) || !branches.some((b) => componentNameOf(b.schema.$ref) === name)) {
      throw new SpecError(`${where}/discriminator/mapping`, 'discriminator', `mapping ${quoted(value)} names ${name}, which is not one of the branches`, 'map the value to a $ref of one of the branches');
    }
  }
  const values = branches.flatMap((b) => b.values);
  const dup = values.find((v, i) => values.indexOf(v) !== i);
  if (dup !== undefined) throw new SpecError(`${where}/discriminator`, 'discriminator', `the value ${quoted(dup)} of ${propertyName} selects two branches`, 'give each branch its own values');
  return { propertyName, branches, values };
}
