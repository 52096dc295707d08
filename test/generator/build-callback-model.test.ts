/**
 * buildCallbackModel on the real callbacks spec and on edited copies of it: what the model holds,
 * and the refusals (rule and pointer) of a spec whose event or hook lists cannot be built.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCallbackModel } from '../../generator/build-callback-model.js';
import { SpecError } from '../../generator/spec-error.js';
import { repoRoot } from '../helpers/seed.js';

const text = readFileSync(join(repoRoot, 'spec/callbacks.asyncapi.yaml'), 'utf8');

/** The model of an edited copy of the spec, or the SpecError's first problem. */
function build(edit: (doc: any) => void) {
  const doc = parse(text);
  edit(doc);
  try {
    return { model: buildCallbackModel(text, 'spec/callbacks.asyncapi.yaml', doc) };
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    return { problem: error.problems[0]! };
  }
}

describe('buildCallbackModel', () => {
  it('reads the event types, the unknown-event branch and the hook types of the spec', () => {
    const model = buildCallbackModel(text);
    const types = model.eventTypes.map((e) => e.type);
    expect(types.length).toBeGreaterThan(3);
    expect(types).toEqual([...types].sort());
    expect(model.unknownEventSchema).toBeDefined();
    expect(model.eventTypes.map((e) => e.schemaName)).not.toContain(model.unknownEventSchema);
    expect(model.hookTypes).toContain('message.before_send');
  });

  it('refuses an AsyncAPI version other than 3.x', () => {
    const { problem } = build((doc) => (doc.asyncapi = '2.6.0'));
    expect(problem).toMatchObject({ rule: 'asyncapi-version', pointer: '/asyncapi' });
  });

  it('refuses an EventItem without a branch for unknown event types', () => {
    const { problem } = build((doc) => {
      const item = doc.components.schemas.EventItem;
      item.oneOf = item.oneOf.filter(
        (b: any) => typeof doc.components.schemas[b.$ref.split('/').pop()].properties?.type?.const === 'string',
      );
    });
    expect(problem).toMatchObject({ rule: 'unknown-event', pointer: '/components/schemas/EventItem' });
  });

  it('refuses an EventItem branch whose $ref resolves to no schema', () => {
    const { problem } = build((doc) =>
      doc.components.schemas.EventItem.oneOf.push({ $ref: '#/components/schemas/Nope' }),
    );
    expect(problem?.rule).toBe('unresolved-ref');
  });

  it('refuses two hook types that name the same request type', () => {
    const { problem } = build((doc) => {
      const anyOf = doc.components.schemas.HookType.anyOf;
      anyOf.push({ ...anyOf.find((b: any) => b.const === 'message.before_send') });
    });
    expect(problem).toMatchObject({ rule: 'name-collision' });
    expect(problem?.pointer).toMatch(/^\/components\/schemas\/HookType\/anyOf\/\d+\/const$/);
  });
});
