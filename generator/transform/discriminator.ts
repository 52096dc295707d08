/**
 * `oneOf`/`anyOf` with a `discriminator`: which values of the discriminator property select which
 * branch. Shared by the TypeScript types (each branch's property typed as its literal values) and
 * the validators (the branch is picked by the value; only its errors are reported).
 *
 * - explicit `mapping: { value: '#/components/schemas/X' | 'X' }`;
 * - a branch no mapping entry names is selected by the `const`/`enum` its discriminator property
 *   pins (inline, in the `$ref`'d component, or in one of its `allOf` parts), as Ajv's
 *   discriminator reads it; only a `$ref` branch that pins nothing is selected by its component
 *   name (OpenAPI's implicit mapping);
 * - two branches selected by one value truly conflict: refused at the discriminator.
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
export function discriminatedOf(
  schema: JsonSchema,
  components: ReadonlyMap<string, JsonSchema>,
  where = '',
): Discriminated | undefined {
  const disc = schema.discriminator;
  const list: JsonSchema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (!disc || !Array.isArray(list)) return undefined;
  const propertyName: string = disc.propertyName;
  if (typeof propertyName !== 'string')
    throw new SpecError(
      `${where}/discriminator`,
      'discriminator',
      'a discriminator needs a propertyName',
      'add propertyName: the name of the property whose value selects the branch',
    );
  const mapping = Object.entries<string>(disc.mapping ?? {}).map(
    ([value, target]) => [value, componentNameOf(target) ?? target] as const,
  );
  const mapped = new Set(mapping.map(([, name]) => name));
  const branches = list.map((branch, i): DiscriminatedBranch => {
    const name = componentNameOf(branch.$ref);
    const at = `${where}/${schema.oneOf ? 'oneOf' : 'anyOf'}/${i}`;
    const pinned = pinnedValues(branch, components, propertyName);
    let values: unknown[];
    // a mapping entry first; else the values the branch pins (what Ajv's discriminator reads);
    // the component's name only when it pins nothing
    if (name !== undefined && mapped.has(name)) values = mapping.filter(([, n]) => n === name).map(([v]) => v);
    else if (pinned?.length) values = pinned;
    else values = name !== undefined ? [name] : [];
    if (!values.length || values.some((v) => typeof v !== 'string')) {
      throw new SpecError(
        at,
        'discriminator',
        `branch ${i} is selected by no string value of ${propertyName}`,
        'give it a $ref, a mapping entry, or a const',
      );
    }
    // a branch that pins its property to other values could never be selected (its type would be never)
    const unreachable = pinned && values.find((v) => !pinned.includes(v));
    if (unreachable !== undefined) {
      throw new SpecError(
        at,
        'discriminator',
        `${quoted(unreachable)} selects ${name ?? `branch ${i}`}, whose ${propertyName} only allows ${pinned!.map((p) => quoted(p)).join(', ')}`,
        'make the mapping and the schema agree',
      );
    }
    return { values: values as string[], schema: branch };
  });
  for (const [value, name] of mapping) {
    if (!components.has(name) || !branches.some((b) => componentNameOf(b.schema.$ref) === name)) {
      throw new SpecError(
        `${where}/discriminator/mapping`,
        'discriminator',
        `mapping ${quoted(value)} names ${name}, which is not one of the branches`,
        'map the value to a $ref of one of the branches',
      );
    }
  }
  const values = branches.flatMap((b) => b.values);
  const dup = values.find((v, i) => values.indexOf(v) !== i);
  if (dup !== undefined)
    throw new SpecError(
      `${where}/discriminator`,
      'discriminator',
      `the value ${quoted(dup)} of ${propertyName} selects two branches`,
      'give each branch its own values',
    );
  return { propertyName, branches, values };
}

/** The string values a branch pins its discriminator property to (`const` or `enum`), following `$ref`s and `allOf`; undefined when it pins none. */
export function pinnedValues(
  branch: JsonSchema | undefined,
  components: ReadonlyMap<string, JsonSchema>,
  propertyName: string,
  seen = new Set<string>(),
): unknown[] | undefined {
  if (!branch || typeof branch !== 'object') return undefined;
  const name = componentNameOf(branch.$ref);
  if (name !== undefined) {
    if (seen.has(name)) return undefined;
    seen.add(name);
    return pinnedValues(components.get(name), components, propertyName, seen);
  }
  let prop = branch.properties?.[propertyName];
  const propName = componentNameOf(prop?.$ref);
  if (propName !== undefined) prop = components.get(propName);
  if (prop && typeof prop === 'object') {
    if ('const' in prop) return [prop.const];
    if (Array.isArray(prop.enum)) return prop.enum;
  }
  if (Array.isArray(branch.allOf)) {
    for (const part of branch.allOf) {
      const values = pinnedValues(part, components, propertyName, seen);
      if (values) return values;
    }
  }
  return undefined;
}
