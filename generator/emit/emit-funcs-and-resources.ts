/**
 * Emits the code that wires operations to the runtime, one file of each kind per namespace:
 * `src/funcs/<ns>.ts` (standalone functions over the core client, tree-shakeable) and
 * `src/resources/<ns>.ts` (the namespace class on ImClient, one line per method).
 */
import { Scope, StructureKind, type FunctionDeclarationStructure, type MethodDeclarationStructure } from 'ts-morph';
import type { ApiModel, HelperMethodModel, JsonSchema, OperationModel } from '../model.js';
import { operationConstName } from './emit-operations.js';
import { itemTypeName, paramsByContentTypeName, paramsTypeName, resultTypeName } from './emit-namespace-types.js';
import { helperCode, type RuntimeImport } from './helper-code.js';
import { operationDocs } from './operation-docs.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { doc, fileStem, jsDocs, stringLiteral } from './spec-text.js';

export const funcsFile = (namespace: string) => `src/funcs/${fileStem(namespace)}.ts`;
export const resourceFile = (namespace: string) => `src/resources/${fileStem(namespace)}.ts`;

interface OperationCode {
  returnType: string;
  optionsType: string;
  call: string;
  runtimeImports: RuntimeImport[];
  typeNames: string[];
}

const runtimeType = (module: string, name: string): RuntimeImport => ({ module, name, typeOnly: true });

/** Import lines for runtime names, one per module; `typesOnly` keeps only the type imports. */
function importLines(imports: RuntimeImport[], typesOnly: boolean): string[] {
  const byModule = new Map<string, Map<string, boolean>>();
  for (const i of imports) {
    if (typesOnly && !i.typeOnly) continue;
    const names = byModule.get(i.module) ?? new Map<string, boolean>();
    names.set(i.name, (names.get(i.name) ?? true) && i.typeOnly);
    byModule.set(i.module, names);
  }
  return [...byModule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, names]) => {
      const entries = [...names].sort(([a], [b]) => a.localeCompare(b));
      const allTypes = entries.every(([, t]) => t);
      const list = entries.map(([n, t]) => (t && !allTypes ? `type ${n}` : n)).join(', ');
      return `import ${allTypes ? 'type ' : ''}{ ${list} } from '../${module}.js';`;
    });
}

/** How one operation is called: a plain request, a page walk, or a batch split into chunks. */
function operationCode(op: OperationModel): OperationCode {
  const types = [paramsTypeName(op), resultTypeName(op)];
  if (op.pagination) {
    return {
      returnType: `PagePromise<${resultTypeName(op)}, ${itemTypeName(op)}>`,
      optionsType: 'RequestOptions',
      call: `listPages(client, ${operationConstName(op)}, params, options)`,
      runtimeImports: [
        runtimeType('core/pagination', 'PagePromise'),
        { module: 'core/pagination', name: 'listPages', typeOnly: false },
      ],
      typeNames: [...types, itemTypeName(op)],
    };
  }
  if (op.batchSplit) {
    return {
      returnType: `Promise<BatchResult<${resultTypeName(op)}>>`,
      optionsType: 'BatchOptions',
      call: `sendInBatches(client, ${operationConstName(op)}, params, options)`,
      runtimeImports: [
        { module: 'helpers/batch', name: 'sendInBatches', typeOnly: false },
        runtimeType('helpers/batch', 'BatchOptions'),
        runtimeType('helpers/batch', 'BatchResult'),
      ],
      typeNames: types,
    };
  }
  return {
    returnType: `ApiPromise<${resultTypeName(op)}>`,
    optionsType: 'RequestOptions',
    call: `client.request(${operationConstName(op)}, params, options)`,
    runtimeImports: [runtimeType('core/api-promise', 'ApiPromise')],
    typeNames: types,
  };
}

/** The return type of an operation's method and function, as written in the code (api.md shows it too). */
export const operationReturnType = (op: OperationModel): string => operationCode(op).returnType;

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

export function emitFuncsAndResources(model: ApiModel): Map<string, string> {
  const components = new Map(model.schemas.map((c) => [c.name, c.schema]));
  const files = new Map<string, string>();
  for (const ns of model.namespaces) {
    const m: NamespaceMembers = {
      runtimeImports: [runtimeType('core/lean-core', 'ImLeanCore'), runtimeType('core/options', 'RequestOptions')],
      typeNames: new Set(),
      consts: new Set(),
      funcs: [],
      methods: [],
    };
    for (const op of ns.operations) addOperation(m, op, components);
    for (const helper of ns.helpers) addHelper(m, helper);
    writeNamespaceFiles(files, model, ns, m);
  }
  return files;
}

/** What a namespace's funcs file and resource class are made of. */
interface NamespaceMembers {
  runtimeImports: RuntimeImport[];
  typeNames: Set<string>;
  consts: Set<string>;
  funcs: FunctionDeclarationStructure[];
  methods: MethodDeclarationStructure[];
}

/** An operation's standalone function and resource method. */
function addOperation(m: NamespaceMembers, op: OperationModel, components: Map<string, JsonSchema>): void {
  const code = operationCode(op);
  m.runtimeImports.push(...code.runtimeImports);
  code.typeNames.forEach((t) => m.typeNames.add(t));
  m.consts.add(operationConstName(op));
  // Several request media types: the `contentType` option picks one and the params type follows it.
  const picks = op.bodies.length > 1 && !op.pagination && !op.batchSplit;
  const typeParameters = picks
    ? [
        {
          name: 'C',
          constraint: `keyof ${paramsByContentTypeName(op)}`,
          default: stringLiteral(op.bodies[0]!.contentType),
        },
      ]
    : [];
  if (picks) m.typeNames.add(paramsByContentTypeName(op));
  const params = {
    name: 'params',
    type: picks ? `${paramsTypeName(op)}<C>` : paramsTypeName(op),
    hasQuestionToken: !op.paramsRequired,
  };
  const options = {
    name: 'options',
    type: picks ? `${code.optionsType} & { contentType?: C }` : code.optionsType,
    hasQuestionToken: true,
  };
  m.funcs.push({
    kind: StructureKind.Function,
    name: op.funcName,
    isExported: true,
    docs: jsDocs(operationDocs(op, 'function', components)),
    typeParameters,
    parameters: [{ name: 'client', type: 'ImLeanCore' }, params, options],
    returnType: code.returnType,
    statements: [`return ${code.call};`],
  });
  m.methods.push({
    kind: StructureKind.Method,
    name: op.methodName,
    docs: jsDocs(operationDocs(op, 'method', components)),
    typeParameters,
    parameters: [params, options],
    returnType: code.returnType,
    statements: [`return ${op.funcName}(this.client, params, options);`],
  });
}

/** A helper's function and method (and its deprecated alias). */
function addHelper(m: NamespaceMembers, helper: HelperMethodModel): void {
  const code = helperCode(helper);
  m.runtimeImports.push(...code.runtimeImports);
  code.typeNames.forEach((t) => m.typeNames.add(t));
  code.operationConsts.forEach((c) => m.consts.add(c));
  m.funcs.push(code.func);
  m.methods.push(code.method);
  if (code.deprecated) {
    m.funcs.push(code.deprecated.func);
    m.methods.push(code.deprecated.method);
  }
}

/** `src/funcs/<ns>.ts` and `src/resources/<ns>.ts`. */
function writeNamespaceFiles(
  files: Map<string, string>,
  model: ApiModel,
  ns: ApiModel['namespaces'][number],
  m: NamespaceMembers,
): void {
  const funcNames = m.funcs.map((f) => f.name!);
  const typeImport = `import type { ${sorted(m.typeNames).join(', ')} } from '../types/${fileStem(ns.name)}.js';`;
  files.set(
    funcsFile(ns.name),
    doNotEditHeader(model.source) +
      renderSource([
        ...importLines(m.runtimeImports, false),
        `import { ${sorted(m.consts).join(', ')} } from '../operations.js';`,
        typeImport,
        ...m.funcs,
      ]),
  );
  files.set(
    resourceFile(ns.name),
    doNotEditHeader(model.source) +
      renderSource([
        ...importLines(m.runtimeImports, true),
        `import { ${funcNames.join(', ')} } from '../funcs/${fileStem(ns.name)}.js';`,
        typeImport,
        {
          kind: StructureKind.Class,
          name: ns.className,
          isExported: true,
          docs: jsDocs(doc`The \`${ns.name}.*\` operations. Reach them as \`client.${ns.name}\`.`),
          ctors: [{ parameters: [{ name: 'client', type: 'ImLeanCore', isReadonly: true, scope: Scope.Private }] }],
          methods: m.methods,
        },
      ]),
  );
}
