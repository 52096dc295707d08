import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../../generator/build-model.js';
import { operationConstName, operationEntryOf, operationSpecOf } from '../../../generator/emit/emit-operations.js';
import { parseSpec } from '../../../generator/load-spec.js';
import * as table from '../../../generated/src/operations.js';
import type { OperationSpec } from '../../../generated/src/operation.js';
import { OPERATION_DEFAULTS, operation } from '../../../templates/runtime/internal/operation-entry.js';
import { repoRoot } from '../../helpers/seed.js';

// operations.ts leaves out the fields most operations share (issue 18: ImClient app size);
// operation() must give back exactly the spec the generator computed, for every operation.
const model = buildApiModel(parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'), 'spec/openapi.yaml'));
const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
/** The data of a spec: functions (validator loader, wire codec) compared apart. */
const data = (spec: OperationSpec) => {
  const { loadValidator: _l, wire: _w, ...rest } = spec;
  return rest;
};

describe('operations.ts entries', () => {
  it('are whole OperationSpecs at run time: every field the generator computed, defaults included', () => {
    const byName = table as unknown as Record<string, OperationSpec>;
    for (const op of model.operations) {
      const runtime = byName[operationConstName(op)]!;
      expect(data(runtime), op.id).toEqual(operationSpecOf(op, components));
      expect(typeof runtime.loadValidator).toBe('function');
    }
    expect(Object.keys(table.operations)).toHaveLength(model.operations.length);
  });

  it('leave out only fields equal to their default, and operation() gives each entry arrays of its own', () => {
    const spec = operationSpecOf(model.operations.find((o) => o.id === 'users.get')!, components);
    const entry = operationEntryOf(spec);
    expect(entry).toEqual({
      id: 'users.get',
      method: 'GET',
      path: '/users/{username}',
      retryClass: 'Q',
    });
    // issue 33: pathParams equal to the path's own names, in order, are left out too; others are written
    const reordered = { ...spec, pathParams: ['other'] };
    expect(operationEntryOf(reordered)).toMatchObject({ pathParams: ['other'] });
    expect(operation(operationEntryOf(reordered) as never).pathParams).toEqual(['other']);
    // a non-default value is always written
    const token = operationEntryOf(operationSpecOf(model.operations.find((o) => o.isTokenExchange)!, components));
    expect(token).toMatchObject({ auth: false, body: 'object' });
    const a = operation(entry as never);
    const b = operation(entry as never);
    expect(a).toEqual(spec);
    expect(a.queryParams).not.toBe(b.queryParams);
    expect(a.successStatuses).not.toBe(b.successStatuses);
    expect(a.successStatuses).not.toBe(OPERATION_DEFAULTS.successStatuses);
  });
});
