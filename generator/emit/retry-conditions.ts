/**
 * The retry-class conditions of an operation (`x-retry-class-when`) in words: the one place that
 * writes them, for the README's operation table, the change report's surface and the JSDoc.
 */
import type { ParamTest, RetryClassCondition } from '../../templates/runtime/contract/operation-spec.js';
import { doc, docJoin, jsonLiteral, type DocText } from './spec-text.js';

/** `a = "x" and b given` (a value as JSON-like literal; presence as given/absent). */
function testsText(tests: readonly ParamTest[]): string {
  return tests
    .map((t) =>
      'equals' in t ? `${t.field} = ${jsonLiteral(t.equals)}` : `${t.field} ${t.present ? 'given' : 'absent'}`,
    )
    .join(' and ');
}

/** One line for tables and the change report: `I when a = "x"; N when b given`. */
export function retryConditionsText(conditions: readonly RetryClassCondition[]): string {
  return conditions.map((c) => `${c.class} when ${testsText(c.all)}`).join('; ');
}

/** One JSDoc sentence per condition: ``Class I when `a` is "x".`` */
export function retryConditionDocs(conditions: readonly RetryClassCondition[]): DocText[] {
  return conditions.map((c) => {
    const tests = c.all.map((t) =>
      'equals' in t
        ? doc`\`${t.field}\` is ${jsonLiteral(t.equals)}`
        : doc`\`${t.field}\` is ${t.present ? 'given' : 'not given'}`,
    );
    return doc`Class ${c.class} when ${docJoin(tests, ' and ')}.`;
  });
}
