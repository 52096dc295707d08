/**
 * `x-since` (generator/extensions/x-since.ts): an operation's version shows as `@since` in the
 * JSDoc of its method and function; a value that is no version is refused, naming the field.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../../../generator/generate.js';
import { readGeneratorInput } from '../../../generator/read-inputs.js';
import { SpecError } from '../../../generator/spec-error.js';
import { repoRoot } from '../../helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const miniText = readFileSync(`${repoRoot}test/fixtures/mini-openapi.yaml`, 'utf8');
/** The mini fixture spec with `x-since: value` on users.get. */
const withSince = (value: unknown) => {
  const doc = parse(miniText);
  doc.paths['/{org_name}/{app_name}/users/{username}'].get['x-since'] = value;
  return generate({ ...input, openapiText: stringify(doc), openapiSource: 'since.yaml' });
};
/** The doc comment right before `marker` in `text`. */
const docBefore = (text: string, marker: string) => {
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  return text.slice(text.lastIndexOf('/**', at), at);
};

describe('x-since', () => {
  it('shows as @since in the JSDoc of the method and the function, after @throws', async () => {
    const { files, model } = await withSince('2.3.0');
    expect(model.operations.find((o) => o.id === 'users.get')?.since).toBe('2.3.0');
    const method = docBefore(files.get('src/resources/users.ts')!, '  get(');
    expect(method).toMatch(/@throws[^\n]*\n(\s*\*[^\n]*\n)*\s*\* @since 2\.3\.0\n/);
    expect(docBefore(files.get('src/funcs/users.ts')!, 'export function usersGet(')).toContain('@since 2.3.0');
    // only where the spec says it
    expect(files.get('src/resources/friends.ts')).not.toContain('@since');
  });
  it('a value that is no version is refused, naming the field and the rule', async () => {
    const error = await withSince('2.3 beta').catch((e) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect(error.problems).toEqual([
      expect.objectContaining({
        rule: 'extension-value',
        message: expect.stringMatching(/^x-since must match pattern/),
      }),
    ]);
  });
  it('is an annotation of spec authors: the service spec carries none', () => {
    expect(input.openapiText).not.toContain('x-since');
  });
});
