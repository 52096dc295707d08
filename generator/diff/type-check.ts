/**
 * Breaking by the types: the base and the new package's sources in one TypeScript program
 * (package-program.ts), and for every public method of ImClient and every exported type, the
 * checker asked what a strict caller needs (type-walk.ts):
 *
 * - a method's params: what the caller passed before must still be accepted (old → new), and
 *   every field it may have written must still exist (an object literal's excess property check);
 *   a params argument that became required breaks `im.x.y()`;
 * - a method's result (the awaited value, a page and its items): what it returns now must fit
 *   where the caller kept the old one (new → old), and every field it may have read must still exist;
 * - an exported type: in the direction its operations use it (a component only sent is checked
 *   as params, one only received as a result, one used both ways both ways); an exported enum or
 *   union is checked both ways, as a caller may switch over it exhaustively; an exported type
 *   that is gone breaks every `import type` of it.
 *
 * Whatever stops such a caller's code from compiling comes out as a breaking change naming the
 * SDK call and the type (`im.calls.stats(): CallsStatsParams.granularity`) with both types.
 */
import ts from 'typescript';
import { emitEntryPoints } from '../emit/emit-entry-points.js';
import {
  emitNamespaceTypes,
  itemTypeName,
  paramsByContentTypeName,
  paramsTypeName,
  resultTypeName,
} from '../emit/emit-namespace-types.js';
import { emitFuncsAndResources } from '../emit/emit-funcs-and-resources.js';
import { emitRuntimeCopy } from '../emit/emit-runtime-copy.js';
import { emitSchemaTypes } from '../emit/emit-schema-types.js';
import type { ApiModel } from '../model.js';
import { componentRefsOf } from '../transform/refs.js';
import { viewDependentSchemas, writableName } from '../transform/views.js';
import type { Change } from './compare.js';
import { packagesProgram } from './package-program.js';
import { TypeWalk, type Direction } from './type-walk.js';

const BRAND = /^declare const (\w+): unique symbol;$/m;
const BRANDS_FILE = 'src/type-brands.ts';

/**
 * The package's TypeScript sources as the generator writes them (unformatted: the checker does
 * not mind). The `unique symbol` of `x-ts-brand` types is declared in one file both packages
 * share: a caller only ever has one version, so the brand is the same to it.
 */
export function packageSources(model: ApiModel, runtimeFiles: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of [
    emitSchemaTypes(model),
    emitNamespaceTypes(model),
    emitFuncsAndResources(model),
    emitEntryPoints(model),
    emitRuntimeCopy(runtimeFiles),
  ]) {
    for (const [path, text] of part) {
      const brand = path.startsWith('src/types/') ? BRAND.exec(text) : null;
      if (brand) files.set(BRANDS_FILE, `export declare const ${brand[1]}: unique symbol;\n`);
      files.set(path, brand ? text.replace(BRAND, `import { ${brand[1]} } from '../type-brands.js';`) : text);
    }
  }
  return files;
}

interface MethodView {
  call: string;
  operation: string;
  /** For a list: the page's items field, so an item's fields are named as the spec rules name them. */
  itemsField?: string;
  decl: ts.MethodDeclaration;
  signature: ts.Signature;
}

export interface TypeCheckInput {
  model: ApiModel;
  /** packageSources(model, …) */
  files: ReadonlyMap<string, string>;
}

export function typeCheckChanges(base: TypeCheckInput, head: TypeCheckInput): Change[] {
  const { program, fileOf } = packagesProgram([
    { root: '/pkg/base', files: base.files },
    { root: '/pkg/head', files: head.files },
  ]);
  const checker = program.getTypeChecker();
  const changes: Change[] = [];
  const seen = new Set<string>();
  const add = (c: Change) => {
    const key = `${c.operation}|${c.field}|${c.kind}|${c.typeName}`;
    if (!seen.has(key)) seen.add(key), changes.push(c);
  };
  const oldMethods = methodsOf(checker, program, fileOf('/pkg/base', 'src/client.ts'), base.model);
  const newMethods = methodsOf(checker, program, fileOf('/pkg/head', 'src/client.ts'), head.model);
  for (const [call, old] of oldMethods) {
    const now = newMethods.get(call);
    if (!now) {
      add({
        class: 'breaking',
        kind: 'type-method-removed',
        operation: old.operation,
        call,
        message: `${call} no longer exists`,
        migration: `stop calling ${call}`,
        source: 'types',
      });
      continue;
    }
    compareMethod(checker, old, now, add);
  }
  compareExports(checker, program, fileOf, base.model, head.model, add);
  return changes;
}

function methodsOf(
  checker: ts.TypeChecker,
  program: ts.Program,
  clientFile: string,
  model: ApiModel,
): Map<string, MethodView> {
  const out = new Map<string, MethodView>();
  const sf = program.getSourceFile(clientFile);
  const cls = sf?.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'ImClient',
  );
  if (!cls) return out;
  const opOf = new Map<string, { id: string; itemsField?: string }>();
  for (const ns of model.namespaces) {
    for (const op of ns.operations)
      opOf.set(`${ns.name}.${op.methodName}`, {
        id: op.id,
        ...(op.pagination ? { itemsField: op.pagination.itemsField } : {}),
      });
    for (const h of ns.helpers) {
      const from =
        h.kind === 'toggle'
          ? h.whenTrue
          : h.kind === 'versioned-all'
            ? h.list
            : h.kind === 'pending-items'
              ? h.items
              : h.create;
      opOf.set(`${ns.name}.${h.methodName}`, { id: from.id });
      if (h.kind === 'versioned-all' && h.alias) opOf.set(`${ns.name}.${h.alias.methodName}`, { id: from.id });
    }
  }
  for (const member of cls.members) {
    if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const ns = member.name.text;
    const type = checker.getTypeAtLocation(member);
    for (const prop of type.getProperties()) {
      const decl = prop.valueDeclaration;
      if (
        !decl ||
        !ts.isMethodDeclaration(decl) ||
        ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
      )
        continue;
      const signature = checker.getSignatureFromDeclaration(decl);
      if (!signature) continue;
      const op = opOf.get(`${ns}.${prop.name}`);
      out.set(`im.${ns}.${prop.name}()`, {
        call: `im.${ns}.${prop.name}()`,
        operation: op?.id ?? `${ns}.${prop.name}`,
        ...(op?.itemsField ? { itemsField: op.itemsField } : {}),
        decl,
        signature,
      });
    }
  }
  return out;
}

/** `CallsStatsParams<C>` → `CallsStatsParams`; `ApiPromise<X>` → `ApiPromise<X>` (as written). */
const label = (node: ts.TypeNode | undefined, fallback: string) =>
  node ? node.getText().replace(/^(\w+)<[A-Z]>$/, '$1') : fallback;

function compareMethod(checker: ts.TypeChecker, old: MethodView, now: MethodView, add: (c: Change) => void): void {
  const at = { operation: now.operation, call: now.call, source: 'types' as const };
  const [op, np] = [old.decl.parameters[0], now.decl.parameters[0]];
  if (op && np) {
    if (checker.isOptionalParameter(op) && !checker.isOptionalParameter(np)) {
      add({
        ...at,
        class: 'breaking',
        kind: 'type-params-required',
        typeName: label(np.type, 'params'),
        message: `${now.call}: the params argument is now required (${label(op.type, '')}? → ${label(np.type, '')})`,
        migration: `pass a params object to ${now.call}`,
      });
    }
    compareParams(
      checker,
      paramsView(checker, op),
      paramsView(checker, np),
      label(np.type, 'params'),
      new TypeWalk(checker, now.call, (f) => add({ ...at, ...f })),
    );
  } else if (!op && np && !checker.isOptionalParameter(np)) {
    add({
      ...at,
      class: 'breaking',
      kind: 'type-params-required',
      typeName: label(np.type, 'params'),
      message: `${now.call} now takes a required params argument (${label(np.type, '')})`,
      migration: `pass a params object to ${now.call}`,
    });
  }
  compareResult(checker, old, now, (f) => add({ ...at, ...f }));
}

interface ParamsView {
  /** The params a call without a contentType option takes. */
  type: ts.Type;
  /** Several request media types: `XParamsByContentType` (media type → params) and the default one. */
  byMedia?: { map: ts.Type; defaultMedia: string };
}

/** A params type `X<C>` over a media type map (`XParamsByContentType[C]`, C defaulting to the first media type). */
function paramsView(checker: ts.TypeChecker, p: ts.ParameterDeclaration): ParamsView {
  // an optional params argument's `| undefined` is its optionality, compared on its own
  const t = checker.getNonNullableType(checker.getTypeAtLocation(p));
  if (!(t.flags & ts.TypeFlags.IndexedAccess)) return { type: t };
  const { objectType: map, indexType } = t as ts.IndexedAccessType;
  const fallback = checker.getDefaultFromTypeParameter(indexType);
  const defaultMedia = fallback?.isStringLiteral() ? fallback.value : '';
  const prop = checker.getPropertyOfType(map, defaultMedia);
  return { type: prop ? checker.getTypeOfSymbol(prop) : t, byMedia: { map, defaultMedia } };
}

/**
 * Params old → new: the default media type's params always; with several media types on both
 * sides also each one a caller may pick by `contentType` (one gone breaks such a call).
 */
function compareParams(checker: ts.TypeChecker, old: ParamsView, now: ParamsView, name: string, walk: TypeWalk): void {
  walk.compare(old.type, now.type, 'in', name, '');
  if (!old.byMedia) return;
  for (const media of checker.getPropertiesOfType(old.byMedia.map)) {
    if (media.name === old.byMedia.defaultMedia) continue;
    const there = now.byMedia ? checker.getPropertyOfType(now.byMedia.map, media.name) : undefined;
    const key = `${name}<'${media.name}'>`;
    if (there) walk.compare(checker.getTypeOfSymbol(media), checker.getTypeOfSymbol(there), 'in', key, '');
    else
      walk.gone(
        key,
        `a call with { contentType: '${media.name}' } no longer compiles`,
        `send it as ${now.byMedia?.defaultMedia || 'the one media type left'}`,
      );
  }
}

function compareResult(
  checker: ts.TypeChecker,
  old: MethodView,
  now: MethodView,
  report: (f: Omit<Change, 'operation' | 'call'>) => void,
): void {
  const [ot, nt] = [old.signature.getReturnType(), now.signature.getReturnType()];
  const [on, nn] = [old.decl.type, now.decl.type];
  const walk = new TypeWalk(checker, now.call, report);
  // Same wrapper (ApiPromise, PagePromise, Promise<BatchResult>): compare its type arguments, named as written.
  const oArgs = on && ts.isTypeReferenceNode(on) ? (on.typeArguments ?? []) : [];
  const nArgs = nn && ts.isTypeReferenceNode(nn) ? (nn.typeArguments ?? []) : [];
  const sameWrapper =
    on &&
    nn &&
    ts.isTypeReferenceNode(on) &&
    ts.isTypeReferenceNode(nn) &&
    on.typeName.getText() === nn.typeName.getText() &&
    oArgs.length === nArgs.length &&
    oArgs.length > 0;
  if (
    on &&
    nn &&
    ts.isTypeReferenceNode(on) &&
    ts.isTypeReferenceNode(nn) &&
    on.typeName.getText() !== nn.typeName.getText()
  ) {
    // another kind of result (a page walker, a batch, a plain promise): told once, not by its members
    report({
      class: 'breaking',
      kind: 'type-return-changed',
      typeName: label(nn, 'result'),
      before: on.getText(),
      after: nn.getText(),
      message: `${now.call} now returns ${nn.getText()}, was ${on.getText()}`,
      migration: `use ${now.call}'s result as ${nn.getText()}`,
    });
    return;
  }
  if (sameWrapper) {
    oArgs.forEach((arg, i) => {
      const name = label(nArgs[i], '');
      // a page's item type: its fields are named under the page's items field, as the spec rules name them
      const prefix = i === 1 && on!.typeName.getText() === 'PagePromise' && now.itemsField ? `${now.itemsField}[]` : '';
      walk.compare(checker.getTypeFromTypeNode(arg), checker.getTypeFromTypeNode(nArgs[i]!), 'out', name, prefix);
    });
    return;
  }
  walk.compare(checker.getAwaitedType(ot) ?? ot, checker.getAwaitedType(nt) ?? nt, 'out', label(nn, 'result'), '');
}

/** Types only the operations' own types name (checked through the methods): not again as exports. */
function derivedNames(model: ApiModel): Set<string> {
  const names = new Set<string>();
  for (const op of model.operations) {
    names.add(paramsTypeName(op)).add(resultTypeName(op)).add(paramsByContentTypeName(op));
    if (op.pagination) names.add(itemTypeName(op));
  }
  for (const ns of model.namespaces)
    for (const h of ns.helpers) if (h.kind === 'toggle') names.add(`${h.typeStem}Params`);
  return names;
}

/** Which way each component schema travels: sent (in), received (out), or both. */
function usageOf(model: ApiModel): Map<string, Set<Direction>> {
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const usage = new Map<string, Set<Direction>>();
  const mark = (node: unknown, dir: Direction) => {
    const stack = [...componentRefsOf(node)];
    while (stack.length) {
      const name = stack.pop()!;
      const set = usage.get(name) ?? new Set<Direction>();
      if (set.has(dir)) continue;
      usage.set(name, set.add(dir));
      stack.push(...componentRefsOf(components.get(name)));
    }
  };
  for (const op of model.operations) {
    mark(
      [
        ...op.pathParams,
        ...op.queryParams,
        ...op.headerParams,
        ...op.cookieParams,
        ...op.bodies.flatMap((b) => [...b.fields, ...(b.union?.variants.flatMap((v) => v.fields) ?? [])]),
      ].map((f) => f.schema),
      'in',
    );
    mark([op.response, op.itemSchema, ...(op.statusResponses ?? []).map((r) => r.schema)], 'out');
  }
  // a write view (XWritable) is what is sent
  for (const name of viewDependentSchemas(components)) usage.set(writableName(name), new Set(['in']));
  return usage;
}

function compareExports(
  checker: ts.TypeChecker,
  program: ts.Program,
  fileOf: (root: string, path: string) => string,
  base: ApiModel,
  head: ApiModel,
  add: (c: Change) => void,
): void {
  const exportsOf = (root: string) => {
    const sf = program.getSourceFile(fileOf(root, 'src/index.ts'));
    const sym = sf && checker.getSymbolAtLocation(sf);
    return new Map(
      (sym ? checker.getExportsOfModule(sym) : []).map((s) => [
        s.name,
        s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s,
      ]),
    );
  };
  const [oldExports, newExports] = [exportsOf('/pkg/base'), exportsOf('/pkg/head')];
  const derived = derivedNames(base);
  const removedOps = base.operations.filter((op) => !head.operations.some((o) => o.id === op.id));
  const goneWithOps = derivedNames({ ...base, operations: removedOps, namespaces: [] });
  const usage = usageOf(head);
  const oldUsage = usageOf(base);
  const newDerived = derivedNames(head);
  for (const name of newExports.keys()) {
    if (oldExports.has(name) || newDerived.has(name)) continue;
    add({
      class: 'addition',
      kind: 'type-export-added',
      operation: '(types)',
      typeName: name,
      message: `the type ${name} is now exported`,
      source: 'types',
    });
  }
  for (const [name, oldSym] of oldExports) {
    const newSym = newExports.get(name);
    if (!newSym) {
      // an operation's own types go with it: its removal or rename says so
      if (goneWithOps.has(name)) continue;
      const owner = base.operations.find((op) => derivedNames({ ...base, operations: [op], namespaces: [] }).has(name));
      add({
        class: 'breaking',
        kind: 'type-export-removed',
        operation: owner?.id ?? '(types)',
        typeName: name,
        message: `the exported type ${name} was removed: \`import type { ${name} }\` no longer compiles`,
        migration: `stop importing ${name}`,
        source: 'types',
      });
      continue;
    }
    if (
      oldSym === newSym ||
      derived.has(name) ||
      !(oldSym.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface))
    )
      continue;
    const [ot, nt] = [checker.getDeclaredTypeOfSymbol(oldSym), checker.getDeclaredTypeOfSymbol(newSym)];
    const union = (t: ts.Type) => t.isUnion() && !(t.flags & ts.TypeFlags.Boolean);
    const dirs: Direction[] =
      union(ot) || union(nt)
        ? ['in', 'out']
        : [...new Set([...(usage.get(name) ?? []), ...(oldUsage.get(name) ?? [])])];
    const walk = new TypeWalk(checker, `the exported type ${name}`, (f) =>
      add({ operation: '(types)', source: 'types', ...f }),
    );
    for (const dir of dirs.length ? dirs : (['out'] as Direction[])) walk.compare(ot, nt, dir, name, '');
  }
}
