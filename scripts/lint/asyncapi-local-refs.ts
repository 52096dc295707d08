/**
 * The AsyncAPI parser as the spec lint runs it: reading the document it is given and nothing
 * else (issue 25). Its own resolvers read any file path and fetch any URL a `$ref` names; these,
 * for file, http and https, are tried first (order 1: the parser takes 0 for "last") and answer
 * every such reference with an empty schema, noting it, so the parser's own are never reached.
 * The lint reports what they noted.
 */
import { Parser } from '@asyncapi/parser';

export function localOnlyAsyncApiParser(refused: string[]): Parser {
  const refuse = (uri: { toString(): string }) => {
    refused.push(uri.toString());
    return '{}';
  };
  const resolvers = ['file', 'http', 'https'].map((schema) => ({ schema, order: 1, canRead: true, read: refuse }));
  return new Parser({ __unstable: { resolver: { resolvers } } });
}
