/**
 * The corpus test's type-level files (issue 26), written into the generated package's src/ and
 * checked by one tsc run:
 * - `corpus-consumer.ts`: a strict consumer that calls every operation with its params type;
 * - `corpus-compare.ts`: per operation, whether our params and result types and
 *   openapi-typescript's (flattened the way our params object is) are mutually assignable, as a
 *   constant typed `'both'`: each operation that is not is one tsc error on its own line, which
 *   `differencesOf` maps back to the operation.
 */
import { paramsTypeName, resultTypeName } from '../../generator/emit/emit-namespace-types.js';
import type { OperationModel } from '../../generator/model.js';
import { stringLiteral } from '../../generator/emit/spec-text.js';
import { OTS_FLATTEN_TYPES } from '../../scripts/lib/ots-flatten.js';

/** openapi-typescript's operation flattened like our params object, and whole (a body carried under `body`). */
const HELPERS = `${OTS_FLATTEN_TYPES}type WholeOf<O> = ParamsOf<O> & { body: BodyOf<O> };
`;

export const CONSUMER_FILE = 'src/corpus-consumer.ts';
export const COMPARE_FILE = 'src/corpus-compare.ts';

export function consumerSource(ops: readonly OperationModel[]): string {
  const lines = [
    `import type * as T from './index.js';`,
    `import type { ImClient } from './index.js';`,
    `declare const im: ImClient;`,
    'export async function callEveryOperation(): Promise<void> {',
  ];
  for (const op of ops) {
    // a list's await gives a Page of its page type; every other call its result type
    const annotation = op.pagination ? '' : `: T.${resultTypeName(op)}`;
    lines.push(
      `  { const params = {} as T.${paramsTypeName(op)}; const result${annotation} = await im.${op.namespace}.${op.methodName}(params); void result; }`,
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** One line per operation and side: `export const p_<i>: Rel<ours, theirs> = 'both';`. Returns the text and which line is whose. */
export function compareSource(ops: readonly OperationModel[]): { text: string; lineOf: Map<number, string> } {
  const lines = [
    `import type * as T from './index.js';`,
    `import type { operations } from './ots.js';`,
    ...HELPERS.trim().split('\n'),
  ];
  const lineOf = new Map<number, string>();
  ops.forEach((op, i) => {
    const key = `operations[${stringLiteral(op.id)}]`;
    const flat = op.body?.whole ? `WholeOf<${key}>` : `FlatOf<${key}>`;
    const status = op.successStatuses.length ? String(op.successStatuses[0]) : stringLiteral('default');
    lines.push(`export const p_${i}: Rel<T.${paramsTypeName(op)}, ${flat}> = 'both';`);
    lineOf.set(lines.length, `${op.id} params`);
    lines.push(`export const r_${i}: Rel<T.${resultTypeName(op)}, ResultOf<${key}, ${status}>> = 'both';`);
    lineOf.set(lines.length, `${op.id} result`);
  });
  return { text: `${lines.join('\n')}\n`, lineOf };
}

/** tsc's output → the operations (and side) whose types differ, from errors in the compare file. */
export function differencesOf(
  tscOutput: string,
  lineOf: ReadonlyMap<number, string>,
): { differ: string[]; other: string[] } {
  const differ = new Set<string>();
  const other: string[] = [];
  for (const line of tscOutput.split('\n')) {
    const m = /^src\/corpus-compare\.ts\((\d+),\d+\): error TS2322/.exec(line);
    const op = m ? lineOf.get(Number(m[1])) : undefined;
    if (op) differ.add(op);
    else if (/error TS/.test(line)) other.push(line);
  }
  return { differ: [...differ].sort(), other };
}
