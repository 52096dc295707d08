/** Derived type names vs component schema names (generator/transform/derived-names.ts): given/want. */
import { describe, expect, it } from 'vitest';
import type { ApiModel } from '../../generator/model.js';
import { checkDerivedNames } from '../../generator/transform/derived-names.js';
import { SpecError } from '../../generator/spec-error.js';

const op = (id: string, typeStem: string, paginated = false) => ({
  id,
  typeStem,
  method: 'GET',
  specPath: `/{org_name}/{app_name}/${id}`,
  ...(paginated ? { pagination: { kind: 'cursor' } } : {}),
});
const model = (schemas: Record<string, unknown>, ops: ReturnType<typeof op>[], helpers: unknown[] = []) =>
  ({
    schemas: Object.entries(schemas).map(([name, schema]) => ({ name, schema })),
    namespaces: [{ name: 'lab', operations: ops, helpers }],
  }) as unknown as ApiModel;
const outcome = (m: ApiModel) => {
  try {
    checkDerivedNames(m);
    const renamed = m.namespaces
      .flatMap((ns) => ns.operations)
      .filter(
        (o) =>
          o.typeStem !==
          o.id
            .split('.')
            .map((p) =>
              p
                .split('_')
                .map((w) => w[0]!.toUpperCase() + w.slice(1))
                .join(''),
            )
            .join(''),
      );
    return renamed.length ? `suffixed: ${renamed.map((o) => o.typeStem).join(', ')}` : 'ok';
  } catch (e) {
    return e instanceof SpecError ? `${e.rule}: ${e.message.match(/the name (\w+)/)![1]}` : String(e);
  }
};

describe('checkDerivedNames', () => {
  const account = { type: 'object', properties: { id: { type: 'string', readOnly: true } } };
  const cases: [string, ApiModel, string][] = [
    ['distinct names', model({ LabHit: {} }, [op('lab.search', 'LabSearch')]), 'ok'],
    // issue 26: suffix, not refusal
    ['schema = <Op>Result', model({ LabSearchResult: {} }, [op('lab.search', 'LabSearch')]), 'suffixed: LabSearchOp'],
    ['schema = <Op>Params', model({ LabSearchParams: {} }, [op('lab.search', 'LabSearch')]), 'suffixed: LabSearchOp'],
    [
      'schema = <Op>Page of a list',
      model({ LabListPage: {} }, [op('lab.list', 'LabList', true)]),
      'suffixed: LabListOp',
    ],
    [
      'schema = <Op>Item of a list',
      model({ LabListItem: {} }, [op('lab.list', 'LabList', true)]),
      'suffixed: LabListOp',
    ],
    [
      'the suffixed name taken too: Op2',
      model({ LabSearchResult: {}, LabSearchOpResult: {} }, [op('lab.search', 'LabSearch')]),
      'suffixed: LabSearchOp2',
    ],
    [
      'a list has no <Op>Result, so that name is free',
      model({ LabListResult: {} }, [op('lab.list', 'LabList', true)]),
      'ok',
    ],
    [
      'schema = <Schema>Writable of a view-dependent schema',
      model({ Account: account, AccountWritable: {} }, []),
      'name-collision: AccountWritable',
    ],
    ['<Schema>Writable is free when the schema has no views', model({ Plain: {}, PlainWritable: {} }, []), 'ok'],
    [
      'two derived names (a_b.c and a.b_c): the second is suffixed',
      model({}, [op('a_b.c', 'ABC'), op('a.b_c', 'ABC')]),
      'suffixed: ABCOp',
    ],
    [
      'toggle helper params',
      model(
        { LabMuteParams: {} },
        [],
        [{ kind: 'toggle', typeStem: 'LabMute', namespace: 'lab', methodName: 'mute', source: 'x' }],
      ),
      'name-collision: LabMuteParams',
    ],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    expect(outcome(given)).toBe(want);
  });
});
