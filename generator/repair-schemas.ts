/**
 * Schema constructs of real-world documents that the generator reads in a defined way instead of
 * refusing the document (issue 26), each a located warning; run before the schemas are checked,
 * so that what is left is JSON Schema 2020-12 that Ajv compiles strictly. Pure: returns a new
 * document.
 *
 * - an unknown keyword (`min_items: 2`, `optional: true`) is dropped: JSON Schema says unknown
 *   keywords are ignored, and the validators are compiled strictly;
 * - `$recursiveRef: '#'` (2019-09) and `$dynamicRef` inside a component schema → a `$ref` to that
 *   component (a self reference; `$recursiveAnchor`/`$dynamicAnchor` dropped); anywhere else the
 *   reference becomes `{}` (fallback);
 * - duplicate items of `required` (an invalid document, its meaning plain) are written once
 *   (fallback: `--strict` refuses it);
 * - a discriminator that cannot select a branch (two branches pinning one value, a branch pinning
 *   none) is dropped, the oneOf/anyOf kept as a plain union, typed and validated branch by branch
 *   (fallback).
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import { schemaRoots } from './check-schemas.js';
import type { GeneratorWarning } from './model.js';
import { SpecError, pointerOf, pointerSegment, quoted } from './spec-error.js';
import { discriminatedOf } from './transform/discriminator.js';
import { ANNOTATIONS, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './transform/inline-schema.js';

const AjvClass: typeof Ajv2020Module.default = (Ajv2020Module as any).default ?? Ajv2020Module;
let known: Record<string, unknown> | undefined;
/** The keywords Ajv (2020-12) compiles: anything else is unknown to the validators. */
const keywords = () =>
  (known ??= (new AjvClass({ strict: false }) as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES
    .keywords);
const OPENAPI_30 = new Set(['nullable']);
const SELF_REFS = new Set(['$recursiveRef', '$dynamicRef']);
const ANCHORS = new Set(['$recursiveAnchor', '$dynamicAnchor']);
const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

export function repairSchemas(doc: Record<string, any>): { doc: Record<string, any>; warnings: GeneratorWarning[] } {
  const warnings: GeneratorWarning[] = [];
  const out = structuredClone(doc);
  const components = new Map<string, any>(
    Object.entries(isMapping(out.components?.schemas) ? out.components.schemas : {}),
  );
  for (const { pointer } of schemaRoots(out)) {
    const segments = pointer
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const holder = segments.slice(0, -1).reduce<any>((n, s) => n?.[s], out);
    const key = segments[segments.length - 1]!;
    const component =
      segments.length === 3 && segments[0] === 'components' && segments[1] === 'schemas' ? key : undefined;
    if (isMapping(holder?.[key])) holder[key] = repair(holder[key], pointer, component, components, warnings);
  }
  return { doc: out, warnings };
}

function repair(
  schema: Record<string, any>,
  pointer: string,
  component: string | undefined,
  components: ReadonlyMap<string, any>,
  warnings: GeneratorWarning[],
): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = pointer + pointerOf(key);
    if (ANCHORS.has(key)) continue;
    if (SELF_REFS.has(key)) {
      if (component !== undefined && typeof value === 'string' && value.startsWith('#'))
        out.$ref = `#/components/schemas/${pointerSegment(component)}`;
      else
        warnings.push({
          pointer: at,
          rule: 'dynamic-ref',
          fallback: true,
          message: `${key} outside a component schema has no component to refer to: read as any value`,
        });
      continue;
    }
    if (!key.startsWith('x-') && !ANNOTATIONS.has(key) && !OPENAPI_30.has(key) && !keywords()[key]) {
      warnings.push({
        pointer: at,
        rule: 'unknown-keyword',
        message: `${quoted(key)} is not a JSON Schema 2020-12 keyword: ignored (as JSON Schema says), neither typed nor validated`,
      });
      continue;
    }
    if (key === 'required' && Array.isArray(value) && new Set(value).size !== value.length) {
      warnings.push({
        pointer: at,
        rule: 'duplicate-required',
        fallback: true,
        message: `required lists ${quoted(value.find((v, i) => value.indexOf(v) !== i))} twice (JSON Schema wants unique items): read once`,
      });
      out[key] = [...new Set(value)];
      continue;
    }
    const sub = (v: unknown, p: string) => (isMapping(v) ? repair(v, p, component, components, warnings) : v);
    if (ONE_SCHEMA.has(key) || key === 'contentSchema') out[key] = sub(value, at);
    else if (SCHEMA_MAP.has(key) && isMapping(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v, at + pointerOf(k))]));
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map((v, i) => sub(v, `${at}/${i}`));
    else out[key] = value;
  }
  if (isMapping(out.discriminator) && Array.isArray(out.oneOf ?? out.anyOf)) {
    try {
      discriminatedOf(out, components, pointer);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      const problem = error.problems[0]!;
      warnings.push({
        pointer: problem.pointer,
        rule: 'discriminator',
        fallback: true,
        message: `${problem.message}: the discriminator is ignored, the ${out.oneOf ? 'oneOf' : 'anyOf'} is typed and validated as a plain union (fix: ${problem.hint})`,
      });
      delete out.discriminator;
    }
  }
  return out;
}
