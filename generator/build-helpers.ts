/**
 * Helper methods declared by spec extensions (x-toggle, x-pending-helper, x-upload-helper) and
 * implied by versioned pagination. Each becomes one method that a runtime helper implements.
 */
import type { OpenApiDocument } from './load-spec.js';
import type { HelperMethodModel, OperationModel } from './model.js';
import { operationNames, RESOURCE_MEMBERS } from './names.js';
import { SpecError, pointerOf, quoted } from './spec-error.js';

export function buildHelperMethods(doc: OpenApiDocument, operations: OperationModel[]): HelperMethodModel[] {
  const byId = new Map(operations.map((o) => [o.id, o]));
  const helpers: HelperMethodModel[] = [];
  /** Where each helper is declared (its extension), for a refusal. */
  const declaredAt = new Map<HelperMethodModel, string>();
  for (const op of operations) {
    const before = helpers.length;
    const raw = doc.paths[op.specPath][op.method.toLowerCase()];
    const at = pointerOf('paths', op.specPath, op.method.toLowerCase());
    const ref = (ext: string, id: unknown): OperationModel => {
      const target = typeof id === 'string' ? byId.get(id) : undefined;
      if (!target)
        throw new SpecError(
          `${at}/${ext}`,
          'helper-operation',
          `${op.id}: ${ext} names operation ${quoted(id)}, which does not exist`,
          'name an operationId of this spec',
        );
      return target;
    };
    const named = (method: unknown, ext: string) => {
      if (typeof method !== 'string' || !/^[a-z][a-z0-9_]*$/.test(method))
        throw new SpecError(
          `${at}/${ext}`,
          'helper-method',
          `${op.id}: ${ext}.method must be a snake_case name, found ${quoted(method)}`,
          'write lower-case letters, digits and _, starting with a letter (e.g. set_mute_all)',
        );
      const names = operationNames(`${op.namespace}.${method}`);
      if (RESOURCE_MEMBERS.has(names.methodName))
        throw new SpecError(
          `${at}/${ext}`,
          'name-collision',
          `${op.id}: ${ext} would name the resource class's own member ${names.methodName}`,
          'give the helper another method name',
        );
      return {
        namespace: op.namespace,
        methodName: names.methodName,
        funcName: names.funcName,
        typeStem: names.typeStem,
      };
    };
    const toggle = raw['x-toggle'];
    if (toggle) {
      helpers.push({
        kind: 'toggle',
        ...named(toggle.method, 'x-toggle'),
        source: `${op.id} x-toggle`,
        field: toggle.field,
        whenTrue: ref('x-toggle', toggle.whenTrue),
        whenFalse: ref('x-toggle', toggle.whenFalse),
        description: toggle.description ?? '',
      });
    }
    const pending = raw['x-pending-helper'];
    if (pending) {
      helpers.push({
        kind: 'pending-items',
        ...named(pending.method, 'x-pending-helper'),
        source: `${op.id} x-pending-helper`,
        items: op,
        decide: ref('x-pending-helper', pending.decide),
        idField: pending.idField,
        versionField: pending.versionField,
        statuses: pending.statuses,
        pageSize: pending.pageSize,
        assumed: pending['x-assumed'],
      });
    }
    const upload = raw['x-upload-helper'];
    if (upload) {
      const ops = {
        create: op,
        partUrls: ref('x-upload-helper', upload.partUrls),
        uploadedParts: ref('x-upload-helper', upload.uploadedParts),
        complete: ref('x-upload-helper', upload.complete),
      };
      helpers.push({
        kind: 'upload',
        ...named(upload.method, 'x-upload-helper'),
        source: `${op.id} x-upload-helper`,
        ...ops,
        assumed: upload['x-assumed'],
      });
      helpers.push({
        kind: 'resume-upload',
        ...named(upload.resumeMethod, 'x-upload-helper'),
        source: `${op.id} x-upload-helper`,
        ...ops,
        assumed: upload['x-assumed'],
      });
    }
    if (op.pagination?.kind === 'versioned') {
      // `…AllPages`, not `…All`: `groups.muteAll` is an operation on all members, so `friends.listAll`
      // read as one too. The old name stays as a deprecated alias.
      const names = operationNames(`${op.id}_all_pages`);
      const old = operationNames(`${op.id}_all`);
      helpers.push({
        kind: 'versioned-all',
        namespace: op.namespace,
        methodName: names.methodName,
        funcName: names.funcName,
        typeStem: names.typeStem,
        source: `${op.id} x-pagination versioned`,
        list: op,
        alias: { methodName: old.methodName, funcName: old.funcName },
      });
    }
    for (const h of helpers.slice(before)) declaredAt.set(h, `${at}/${h.source.split(' ')[1]}`);
  }
  const taken = new Set(operations.map((o) => `${o.namespace}.${o.methodName}`));
  for (const h of helpers) {
    for (const methodName of [h.methodName, ...(h.kind === 'versioned-all' && h.alias ? [h.alias.methodName] : [])]) {
      const key = `${h.namespace}.${methodName}`;
      if (taken.has(key))
        throw new SpecError(
          declaredAt.get(h) ?? '',
          'helper-name-clash',
          `helper ${key} (from ${h.source}) clashes with another method of that name`,
          'give the helper another method name',
        );
      taken.add(key);
    }
  }
  return helpers.sort((a, b) => a.funcName.localeCompare(b.funcName));
}
