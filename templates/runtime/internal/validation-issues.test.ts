import { describe, expect, test } from 'vitest';
import { PATH_SEGMENT_PATTERN, fieldLabel, issuesFromAjv, type AjvErrorLike } from './validation-issues.js';

const ctx = { pathParams: ['username'] };
const err = (
  keyword: string,
  instancePath: string,
  schemaPath: string,
  params: Record<string, unknown> = {},
): AjvErrorLike => ({ keyword, instancePath, schemaPath, params });

describe('fieldLabel', () => {
  test.each([
    ['', 'params'],
    ['/username', 'username'],
    ['/users/3/username', 'users[3].username'],
    ['/attributes/a~1b/c~0d', 'attributes.a/b.c~d'],
    ['/0', '0'],
  ])('%s → %s', (pointer, want) => expect(fieldLabel(pointer)).toBe(want));
});

describe('issuesFromAjv', () => {
  test('required and additionalProperties point at the missing or extra field itself', () => {
    const issues = issuesFromAjv(
      [
        err('required', '/users/3', '#/properties/users/items/required', { missingProperty: 'username' }),
        err('additionalProperties', '', '#/additionalProperties', { additionalProperty: 'a/b' }),
      ],
      {},
      ctx,
    );
    expect(issues.map((i) => [i.pointer, i.rule])).toEqual([
      ['/users/3/username', 'required'],
      ['/a~1b', 'additionalProperties'],
    ]);
    expect(issues[0]!.message).toBe('`users[3].username` is required');
  });

  test('enum and const list the allowed values', () => {
    const [e, c] = issuesFromAjv(
      [
        err('enum', '/role', '#/properties/role/enum', { allowedValues: ['admin', 'member'] }),
        err('const', '/grant_type', '#/properties/grant_type/const', { allowedValue: 'client_credentials' }),
      ],
      { role: 'owner', grant_type: 'x' },
      ctx,
    );
    expect(e).toEqual({
      pointer: '/role',
      rule: 'enum',
      allowed: ['admin', 'member'],
      message: '`role` must be one of "admin", "member" (got "owner")',
    });
    expect(c!.allowed).toEqual(['client_credentials']);
  });

  test('path-segment pattern: the message names the actual problem', () => {
    const one = (value: string) =>
      issuesFromAjv(
        [err('pattern', '/username', '#/properties/username/pattern', { pattern: PATH_SEGMENT_PATTERN })],
        { username: value },
        ctx,
      )[0]!.message;
    expect(one('..')).toContain('must not be "." or ".."');
    expect(one('a/b')).toContain('must not contain "/"');
    expect(one('a\u007fb')).toContain('control characters');
    expect(one('a/b')).toMatch(/^path parameter `username`/);
    const regex = new RegExp(PATH_SEGMENT_PATTERN, 'u');
    expect(['a', 'a.b', '...', 'é', 'a b'].every((v) => regex.test(v))).toBe(true);
    expect(['.', '..', 'a/b', 'a\u0000', '\t', 'x\u007f'].some((v) => regex.test(v))).toBe(false);
  });

  test('anyOf: the branch whose type matched speaks; when none did, one type issue lists the types', () => {
    const folded = issuesFromAjv(
      [
        err('minLength', '/username', '#/properties/username/anyOf/0/minLength', { limit: 1 }),
        err('type', '/username', '#/properties/username/anyOf/1/type', { type: 'null' }),
        err('anyOf', '/username', '#/properties/username/anyOf'),
      ],
      { username: '' },
      { pathParams: [] },
    );
    expect(folded).toEqual([{ pointer: '/username', rule: 'minLength', message: '`username` must not be empty' }]);
    const types = issuesFromAjv(
      [
        err('type', '/v', '#/properties/v/anyOf/0/type', { type: 'integer' }),
        err('type', '/v', '#/properties/v/anyOf/1/type', { type: 'string' }),
        err('anyOf', '/v', '#/properties/v/anyOf'),
      ],
      { v: true },
      ctx,
    );
    expect(types).toEqual([{ pointer: '/v', rule: 'type', message: '`v` must be an integer or a string (got true)' }]);
  });

  test('anyOf: of the branches whose type matched, the one with the fewest errors speaks', () => {
    const issues = issuesFromAjv(
      [
        err('required', '/target', '#/properties/target/anyOf/0/required', { missingProperty: 'user' }),
        err('additionalProperties', '/target', '#/properties/target/anyOf/0/additionalProperties', {
          additionalProperty: 'group',
        }),
        err('minimum', '/target/group', '#/properties/target/anyOf/1/properties/group/minimum', {
          comparison: '>=',
          limit: 1,
        }),
        err('anyOf', '/target', '#/properties/target/anyOf', {}),
      ],
      { target: { group: 0 } },
      ctx,
    );
    expect(issues.map((i) => `${i.pointer} ${i.rule}`)).toEqual(['/target/group minimum']);
  });

  test('a false schema (a readOnly property in a request) says read-only', () => {
    const [issue] = issuesFromAjv([err('false schema', '/id', '#/properties/id/false schema')], { id: 'x' }, ctx);
    expect(issue).toEqual({ pointer: '/id', rule: 'readOnly', message: '`id` is read-only: the service sets it' });
  });

  test('response drift speaks of the response, never of params', () => {
    const drift = { pathParams: [], response: true };
    const issues = issuesFromAjv(
      [
        err('additionalProperties', '', '#/additionalProperties', { additionalProperty: 'added' }),
        err('additionalProperties', '/owner', '#/properties/owner/additionalProperties', { additionalProperty: 'x' }),
      ],
      { added: 1, owner: { x: 1 } },
      drift,
    );
    expect(issues.map((i) => i.message)).toEqual([
      '`added` is not a field the spec declares for this response (`body` is a documented shape; the service may have added it)',
      '`owner.x` is not a field the spec declares for this response (`owner` is a documented shape; the service may have added it)',
    ]);
    for (const i of issues) expect(i.message).not.toMatch(/param/);
  });

  test('nested anyOf folds from the inside out', () => {
    const issues = issuesFromAjv(
      [
        err('type', '/v', '#/properties/v/anyOf/0/anyOf/0/type', { type: 'integer' }),
        err('type', '/v', '#/properties/v/anyOf/0/anyOf/1/type', { type: 'boolean' }),
        err('anyOf', '/v', '#/properties/v/anyOf/0/anyOf'),
        err('type', '/v', '#/properties/v/anyOf/1/type', { type: 'null' }),
        err('anyOf', '/v', '#/properties/v/anyOf'),
      ],
      { v: 'x' },
      ctx,
    );
    expect(issues).toEqual([
      { pointer: '/v', rule: 'type', message: '`v` must be an integer, a boolean or null (got "x")' },
    ]);
  });

  test('never quotes the value of a secret-looking field, nor long values', () => {
    const secret = 'p4ssw0rd-value';
    const issues = issuesFromAjv(
      [
        err('type', '/password', '#/properties/password/type', { type: 'string' }),
        err('enum', '/auth/token', '#/x/enum', { allowedValues: ['a'] }),
        err('const', '/mode', '#/x/const', { allowedValue: 'a' }),
      ],
      { password: 1234, auth: { token: secret }, mode: 'x'.repeat(100) },
      ctx,
    );
    const text = JSON.stringify(issues);
    expect(text).not.toContain('1234');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('x'.repeat(41));
    expect(issues[2]!.message).toContain('(got string)');
  });

  test('duplicates collapse; an unknown keyword still gives an issue naming the field and rule', () => {
    const issues = issuesFromAjv(
      [
        err('type', '/a', '#/properties/a/allOf/0/type', { type: 'string' }),
        err('type', '/a', '#/properties/a/allOf/1/type', { type: 'string' }),
        err('someNewKeyword', '/b', '#/properties/b/someNewKeyword'),
      ],
      { a: 1 },
      ctx,
    );
    expect(issues).toEqual([
      { pointer: '/a', rule: 'type', message: '`a` must be a string (got 1)' },
      { pointer: '/b', rule: 'someNewKeyword', message: '`b` does not satisfy the rule `someNewKeyword`' },
    ]);
    expect(issuesFromAjv(null, {}, ctx)).toEqual([]);
  });

  test('params that are not an object', () => {
    expect(issuesFromAjv([err('type', '', '#/type', { type: 'object' })], [1], ctx)).toEqual([
      { pointer: '', rule: 'type', message: 'params must be an object of named fields (got array)' },
    ]);
  });
});
