/**
 * JSDoc of a property: its description, `@deprecated` (the spec's `deprecated: true`) and
 * `@default <value>` (the spec's `default`, as JSON). A description alone stays one line.
 * Spec text goes in through emit/spec-text.ts (escaped for a doc comment).
 */
import type { JsonSchema } from '../model.js';
import { doc, docComment, docJoin, docOneLine, DocText, jsonLiteral } from '../emit/spec-text.js';

/** `text`: the description to write (default: the schema's own), spec text or already escaped. */
export function propertyDoc(schema: JsonSchema | boolean | undefined, text?: string | DocText): string {
  if (!schema || typeof schema !== 'object') return text ? `${docComment(docOneLine(text))}\n` : '';
  const raw = text ?? schema.description;
  const description = raw ? docOneLine(raw instanceof DocText ? raw : String(raw)) : undefined;
  const tags: DocText[] = [];
  if (schema.deprecated === true) tags.push(doc`@deprecated`);
  if ('default' in schema && schema.default !== undefined) tags.push(doc`@default ${jsonLiteral(schema.default)}`);
  if (!tags.length) return description ? `${docComment(description)}\n` : '';
  return `${docComment(docJoin([...(description ? [description] : []), ...tags], '\n'), { block: true })}\n`;
}
