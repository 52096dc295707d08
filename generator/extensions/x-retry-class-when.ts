/**
 * `x-retry-class-when`: another retry class for the calls whose params pass every test of a
 * condition (e.g. class N when `online_only` is true). The words for it are in emit/retry-conditions.ts.
 */
import { retryConditionDocs, retryConditionsText } from '../emit/retry-conditions.js';
import { SpecError } from '../spec-error.js';
import { defineExtension, type OperationContext } from './extension.js';
import { RETRY_CLASSES } from './x-retry-class.js';

/** The first condition or test that breaks the rules, in the words of a spec author. */
function explain(value: unknown, { id, at }: OperationContext) {
  const conditions: any[] = Array.isArray(value) ? value : [];
  for (const [i, cond] of conditions.entries()) {
    if (!RETRY_CLASSES.includes(cond?.class) || !Array.isArray(cond?.all) || cond.all.length === 0)
      return new SpecError(
        `${at}/x-retry-class-when/${i}`,
        'retry-class-condition',
        `${id}: each condition needs a class (Q, I, U, D, N) and a non-empty "all" list`,
        'write { class: N, all: [{ field: online_only, equals: true }] }',
      ).problems[0];
    for (const [j, test] of cond.all.entries()) {
      const ok =
        typeof test?.field === 'string' &&
        'equals' in test !== 'present' in test &&
        (!('present' in test) || typeof test.present === 'boolean');
      if (!ok)
        return new SpecError(
          `${at}/x-retry-class-when/${i}/all/${j}`,
          'retry-class-condition',
          `${id}: a test is {field, equals} or {field, present: boolean}`,
          'write { field: <param>, equals: <value> } or { field: <param>, present: true }',
        ).problems[0];
    }
  }
  return undefined;
}

const CLASS = { enum: [...RETRY_CLASSES] };
const TEST = {
  type: 'object',
  required: ['field'],
  additionalProperties: false,
  properties: {
    field: { type: 'string', minLength: 1 },
    equals: { type: ['string', 'number', 'boolean', 'null'] },
    present: { type: 'boolean' },
  },
  oneOf: [{ required: ['equals'] }, { required: ['present'] }],
};

export const retryClassWhen = defineExtension({
  name: 'x-retry-class-when',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning:
      '`[{ class, all: [{ field, equals } \\| { field, present }] }]`: another class ' +
      "when every test holds on the call's params",
  },
  schema: {
    description: "Another class when every test holds on the call's params.",
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['class', 'all'],
      additionalProperties: false,
      properties: { class: CLASS, all: { type: 'array', minItems: 1, items: TEST } },
    },
  },
  explain,
  read: (value) => ({ retryClassWhen: value ?? [] }),
  docLines: (op) => retryConditionDocs(op.retryClassWhen),
  surface: (op) => ({ retryClassWhen: retryConditionsText(op.retryClassWhen) }),
  compare(old, now, change) {
    if (old.retryClassWhen === now.retryClassWhen) return;
    change({
      class: 'breaking',
      kind: 'retry-class-conditions-changed',
      before: old.retryClassWhen || 'none',
      after: now.retryClassWhen || 'none',
      message: `${now.call}: retry-class conditions "${old.retryClassWhen || 'none'}" → "${now.retryClassWhen || 'none'}"`,
      migration: `check which calls of ${now.call} the client now resends`,
    });
  },
});
