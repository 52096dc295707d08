/**
 * TypeScript helpers over openapi-typescript's \`operations\` that flatten an operation the way our
 * params object is flat (path, query, header, cookie and JSON body fields side by side, the prefix
 * parameters left out), its result by status, and the assignability relation of two types. Written
 * into the comparison files of scripts/compare-openapi-typescript.ts and the corpus test.
 */
export const OTS_FLATTEN_TYPES = `
type Loc<P, L extends string> = P extends { [k in L]?: infer X } ? ([NonNullable<X>] extends [never] ? {} : NonNullable<X>) : {};
type ContentOf<C> = C extends { content: infer CC } ? ('application/json' extends keyof CC ? CC['application/json'] : CC[keyof CC]) : never;
type BodyOf<O> = O extends { requestBody?: infer B } ? ([NonNullable<B>] extends [never] ? {} : ContentOf<NonNullable<B>>) : {};
type ParamsOf<O> = O extends { parameters: infer P } ? Omit<Loc<P, 'path'>, 'org_name' | 'app_name'> & Loc<P, 'query'> & Loc<P, 'header'> & Loc<P, 'cookie'> : {};
type FlatOf<O> = ParamsOf<O> & BodyOf<O>;
type ResultOf<O, S> = O extends { responses: infer R } ? (S extends keyof R ? ([ContentOf<R[S]>] extends [never] ? void : ContentOf<R[S]>) : never) : never;
type Rel<A, B> = [A] extends [B] ? ([B] extends [A] ? 'both' : 'ours-to-theirs') : [B] extends [A] ? 'theirs-to-ours' : 'neither';
`;
