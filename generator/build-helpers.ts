/**
 * Helper methods declared by spec extensions (x-toggle, x-pending-helper, x-upload-helper) and
 * implied by versioned pagination. Each becomes one method that a runtime helper implements.
 */
import { OPERATION_EXTENSIONS, type HelperReader } from './extensions/index.js';
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
    const raw = doc.paths[op.specPath][op.method.toLowerCase()];
    const at = pointerOf('paths', op.specPath, op.method.toLowerCase());
    const declared = extensionHelpers(op, raw, extensionReader(op, at, byId));
    if (op.pagination?.kind === 'versioned') declared.push(versionedAllHelper(op));
    for (const h of declared) {
      helpers.push(h);
      declaredAt.set(h, `${at}/${h.source.split(' ')[1]}`);
    }
  }
  checkHelperNamesFree(helpers, operations, declaredAt);
  return helpers.sort((a, b) => a.funcName.localeCompare(b.funcName));
}

/** Reads an extension's operation references and method names, refusing what does not exist or clashes. */
function extensionReader(op: OperationModel, at: string, byId: ReadonlyMap<string, OperationModel>): HelperReader {
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
  return { ref, named };
}

/** The helpers an operation's extensions declare (x-toggle, x-pending-helper, x-upload-helper: `helpers`). */
function extensionHelpers(op: OperationModel, raw: any, reader: HelperReader): HelperMethodModel[] {
  return OPERATION_EXTENSIONS.flatMap((e) => (raw[e.name] && e.helpers ? e.helpers(raw[e.name], op, reader) : []));
}

/** `<list>AllPages` of a versioned list (with the deprecated `<list>All` alias). */
function versionedAllHelper(op: OperationModel): HelperMethodModel {
  // `…AllPages`, not `…All`: `groups.muteAll` is an operation on all members, so `friends.listAll`
  // read as one too. The old name stays as a deprecated alias.
  const names = operationNames(`${op.id}_all_pages`);
  const old = operationNames(`${op.id}_all`);
  return {
    kind: 'versioned-all',
    namespace: op.namespace,
    methodName: names.methodName,
    funcName: names.funcName,
    typeStem: names.typeStem,
    source: `${op.id} x-pagination versioned`,
    list: op,
    alias: { methodName: old.methodName, funcName: old.funcName },
  };
}

/** Refuses a helper whose method name (or alias) an operation or another helper of its resource already has. */
function checkHelperNamesFree(
  helpers: readonly HelperMethodModel[],
  operations: readonly OperationModel[],
  declaredAt: ReadonlyMap<HelperMethodModel, string>,
): void {
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
}
