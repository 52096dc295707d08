/**
 * JSDoc of a property: its description, `@deprecated` (the spec's `deprecated: true`) and
 * `@default <value>` (the spec's `default`, as JSON). A description alone stays one line.
 */
import type { JsonSchema } from '../model.js';

const clean = (text: string) => text.replace(/\*\//g, '*\\/');

/** `text`: the description to write (default: the schema's own). */
export function propertyDoc(schema: JsonSchema | boolean | undefined, text?: string): string {
  if (!schema || typeof schema !== 'object') return text ? `/** ${clean(text).replace(/\n+/g, ' ')} */\n` : '';
  const raw = text ?? schema.description;
  const description: string | undefined = raw ? clean(String(raw)).replace(/\n+/g, ' ') : undefined;
  const tags: string[] = [];
  if (schema.deprecated === true) tags.push('@deprecated');
  if ('default' in schema) tags.push(`@default ${clean(JSON.stringify(schema.default))}`);
  if (!tags.length) return description ? `/** ${description} */\n` : '';
  return `/**\n${[...(description ? [description] : []), ...tags].map((l) => ` * ${l}`).join('\n')}\n */\n`;
}
