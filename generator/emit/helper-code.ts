/**
 * Code of the helper methods (one per HelperMethodModel): a standalone function that hands the
 * operations' table entries to a runtime helper, and the namespace method that calls it.
 */
import {
  StructureKind,
  type FunctionDeclarationStructure,
  type MethodDeclarationStructure,
  type OptionalKind,
  type ParameterDeclarationStructure,
} from 'ts-morph';
import type { HelperMethodModel } from '../model.js';
import { operationConstName } from './emit-operations.js';
import { itemTypeName, paramsTypeName, resultTypeName } from './emit-namespace-types.js';
import { doc, docJoin, jsDocs, jsonLiteral, stringLiteral, type DocText } from './spec-text.js';

export interface HelperCode {
  /** What it imports from the runtime (modules relative to src/). */
  runtimeImports: RuntimeImport[];
  /** Operation constants the function uses. */
  operationConsts: string[];
  /** Types imported from ../types/<ns>.js. */
  typeNames: string[];
  func: FunctionDeclarationStructure;
  method: MethodDeclarationStructure;
  /** A former name of the helper, kept as a deprecated function and method that call it. */
  deprecated?: { func: FunctionDeclarationStructure; method: MethodDeclarationStructure };
}

/** One name imported from a runtime module; `typeOnly` names are all the resource classes need. */
export interface RuntimeImport {
  module: string;
  name: string;
  typeOnly: boolean;
}

const value = (module: string, name: string): RuntimeImport => ({ module, name, typeOnly: false });
const type = (module: string, name: string): RuntimeImport => ({ module, name, typeOnly: true });

interface Shape {
  parameters: OptionalKind<ParameterDeclarationStructure>[];
  returnType: string;
  body: string;
  runtimeImports: RuntimeImport[];
  operationConsts: string[];
  typeNames: string[];
  docs: DocText;
}

type HelperOf<K extends HelperMethodModel['kind']> = Extract<HelperMethodModel, { kind: K }>;

function shapeOf(h: HelperMethodModel): Shape {
  switch (h.kind) {
    case 'toggle':
      return toggleShape(h);
    case 'versioned-all':
      return versionedAllShape(h);
    case 'pending-items':
      return pendingItemsShape(h);
    case 'upload':
    case 'resume-upload':
      return uploadShape(h);
  }
}

/** One method that calls one of two operations by a boolean field. */
function toggleShape(h: HelperOf<'toggle'>): Shape {
  const params = `${h.typeStem}Params`;
  return {
    parameters: [
      { name: 'params', type: params },
      { name: 'options', type: 'RequestOptions', hasQuestionToken: true },
    ],
    returnType: `ApiPromise<${resultTypeName(h.whenTrue)} | ${resultTypeName(h.whenFalse)}>`,
    body: `return toggle(client, { field: ${stringLiteral(h.field)}, whenTrue: ${operationConstName(h.whenTrue)}, whenFalse: ${operationConstName(h.whenFalse)}, helperId: ${stringLiteral(`${h.namespace}.${h.funcName}`)} }, params, options);`,
    runtimeImports: [
      value('helpers/toggle', 'toggle'),
      type('core/api-promise', 'ApiPromise'),
      type('core/options', 'RequestOptions'),
    ],
    operationConsts: [operationConstName(h.whenTrue), operationConstName(h.whenFalse)],
    typeNames: [params, resultTypeName(h.whenTrue), resultTypeName(h.whenFalse)],
    docs: doc`Sets or clears with one call: \`${h.field}: true\` calls \`${h.whenTrue.id}\` (${h.whenTrue.method}), \`${h.field}: false\` calls \`${h.whenFalse.id}\` (${h.whenFalse.method}). ${h.description}`,
  };
}

/** Every page of a versioned list, with the version to pass next time. */
function versionedAllShape(h: HelperOf<'versioned-all'>): Shape {
  return {
    parameters: [
      { name: 'params', type: paramsTypeName(h.list), hasQuestionToken: !h.list.paramsRequired },
      { name: 'options', type: 'RequestOptions', hasQuestionToken: true },
    ],
    returnType: `Promise<VersionedSnapshot<${itemTypeName(h.list)}>>`,
    body: `return fetchVersionedList(client, ${operationConstName(h.list)}, ${h.list.paramsRequired ? 'params' : 'params ?? {}'}, options);`,
    runtimeImports: [
      value('helpers/versioned', 'fetchVersionedList'),
      type('helpers/versioned', 'VersionedSnapshot'),
      type('core/options', 'RequestOptions'),
    ],
    operationConsts: [operationConstName(h.list)],
    typeNames: [paramsTypeName(h.list), itemTypeName(h.list)],
    docs: doc`Fetches every page of \`${h.list.id}\` and returns the items with the list version to pass as \`known_version\` next time.`,
  };
}

/** Walks pending items and submits a decision for each. */
function pendingItemsShape(h: HelperOf<'pending-items'>): Shape {
  return {
    // the scene typed as the list operation's own param (the spec's enum), so `scene: 'chat'` does not compile
    parameters: [
      {
        name: 'options',
        type: h.items.queryParams.some((f) => f.name === 'scene')
          ? `PendingItemsOptions<${itemTypeName(h.items)}, Extract<NonNullable<${paramsTypeName(h.items)}['scene']>, string>>`
          : `PendingItemsOptions<${itemTypeName(h.items)}>`,
      },
    ],
    returnType: `Promise<PendingItemsReport<${itemTypeName(h.items)}>>`,
    body: `return processPendingItems(client, { items: ${operationConstName(h.items)}, decide: ${operationConstName(h.decide)}, idField: ${stringLiteral(h.idField)}, versionField: ${stringLiteral(h.versionField)} }, { ...options, statuses: options.statuses ?? ${jsonLiteral(h.statuses)}, pageSize: options.pageSize ?? ${jsonLiteral(h.pageSize)} });`,
    runtimeImports: [
      value('helpers/pending-moderation', 'processPendingItems'),
      type('helpers/pending-moderation', 'PendingItemsOptions'),
      type('helpers/pending-moderation', 'PendingItemsReport'),
    ],
    operationConsts: [operationConstName(h.items), operationConstName(h.decide)],
    typeNames: [itemTypeName(h.items), paramsTypeName(h.items)],
    docs: doc`Walks items in status ${h.statuses.join(' or ')} (${h.pageSize} a page by default, optionally one \`scene\`), asks \`decide\` for each and submits the decision with the item's version (\`${h.decide.id}\`). An item already decided by someone else (version_conflict) is skipped and reported, not retried or thrown.`,
  };
}

/** A multi-part upload, or the resume of an interrupted one. */
function uploadShape(h: HelperOf<'upload' | 'resume-upload'>): Shape {
  const ops = `{ helperId: ${stringLiteral(`${h.namespace}.${h.methodName}`)}, create: ${operationConstName(h.create)}, partUrls: ${operationConstName(h.partUrls)}, uploadedParts: ${operationConstName(h.uploadedParts)}, complete: ${operationConstName(h.complete)} }`;
  const resume = h.kind === 'resume-upload';
  return {
    parameters: [
      ...(resume ? [{ name: 'from', type: 'string | UploadInterruptedError' }] : []),
      { name: 'source', type: 'UploadSource' },
      { name: 'options', type: 'UploadOptions', hasQuestionToken: true },
    ],
    returnType: `Promise<UploadResult<${resultTypeName(h.complete)}>>`,
    body: resume
      ? `return resumeUpload(client, ${ops}, from, source, options);`
      : `return uploadFile(client, ${ops}, source, options);`,
    runtimeImports: [
      value('helpers/upload', resume ? 'resumeUpload' : 'uploadFile'),
      type('helpers/upload', 'UploadOptions'),
      type('helpers/upload', 'UploadResult'),
      type('helpers/upload-source', 'UploadSource'),
      ...(resume ? [type('helpers/upload', 'UploadInterruptedError')] : []),
    ],
    operationConsts: [h.create, h.partUrls, h.uploadedParts, h.complete].map(operationConstName),
    typeNames: [resultTypeName(h.complete)],
    docs: resume
      ? doc`Resumes an interrupted upload: lists the parts the service has (\`${h.uploadedParts.id}\`), sends only the missing ones and completes (class I). Give the same source again, and the \`UploadInterruptedError\` itself (it records the part size) or its \`fileId\`. The part size is kept: taken from the sizes the service lists for its parts, else \`options.partSize\`, else the error's; a resume that cannot know it, or whose part size contradicts the parts held, is refused before any part is sent (a resume with another part size would corrupt the file). Where the service lists no part sizes, a file id with \`options.partSize\` is taken at its word: keep \`error.partSize\` with the file id.`
      : doc`Uploads a file: \`${h.create.id}\`, then each part to its own upload address from \`${h.partUrls.id}\` (never with the App Token), then \`${h.complete.id}\`. Memory stays near partSize × concurrency whatever the size. An interrupted upload throws \`UploadInterruptedError\` carrying the \`fileId\` to resume with.`,
  };
}

export function helperCode(h: HelperMethodModel): HelperCode {
  const shape = shapeOf(h);
  const docs = jsDocs(
    docJoin(
      [shape.docs, ...(h.assumed ? [doc`Assumed (the service's documentation is silent): ${h.assumed}.`] : [])],
      '\n\n',
    ),
  );
  const args = shape.parameters.map((p) => p.name).join(', ');
  const alias = h.kind === 'versioned-all' ? h.alias : undefined;
  const aliasDocs =
    alias &&
    jsDocs(
      doc`@deprecated Renamed \`${h.methodName}\` (\`${h.funcName}\`): \`…All\` read like an operation on all items (as \`groups.muteAll\` is). Same behaviour.`,
    );
  return {
    ...(alias && aliasDocs
      ? {
          deprecated: {
            func: {
              kind: StructureKind.Function,
              name: alias.funcName,
              isExported: true,
              docs: aliasDocs,
              parameters: [{ name: 'client', type: 'ImLeanCore' }, ...shape.parameters],
              returnType: shape.returnType,
              statements: [`return ${h.funcName}(client, ${args});`],
            },
            method: {
              kind: StructureKind.Method,
              name: alias.methodName,
              docs: aliasDocs,
              parameters: shape.parameters,
              returnType: shape.returnType,
              statements: [`return ${alias.funcName}(this.client, ${args});`],
            },
          },
        }
      : {}),
    runtimeImports: shape.runtimeImports,
    operationConsts: shape.operationConsts,
    typeNames: shape.typeNames,
    func: {
      kind: StructureKind.Function,
      name: h.funcName,
      isExported: true,
      docs,
      parameters: [{ name: 'client', type: 'ImLeanCore' }, ...shape.parameters],
      returnType: shape.returnType,
      statements: [shape.body],
    },
    method: {
      kind: StructureKind.Method,
      name: h.methodName,
      docs,
      parameters: shape.parameters,
      returnType: shape.returnType,
      statements: [`return ${h.funcName}(this.client, ${args});`],
    },
  };
}
