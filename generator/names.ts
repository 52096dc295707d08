/** Naming rules shared by the model builder and the emitters. */

export function camelCase(snake: string): string {
  return snake.replace(/[_-]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function pascalCase(snake: string): string {
  const camel = camelCase(snake);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** `users.batch_create` → { namespace: 'users', methodName: 'batchCreate', funcName: 'usersBatchCreate' } */
export function operationNames(id: string): { namespace: string; methodName: string; funcName: string; typeStem: string } {
  const dot = id.indexOf('.');
  const namespace = id.slice(0, dot);
  const rest = id.slice(dot + 1).replace(/\./g, '_');
  const methodName = camelCase(rest);
  return {
    namespace,
    methodName,
    funcName: camelCase(namespace) + pascalCase(rest),
    typeStem: pascalCase(namespace) + pascalCase(rest),
  };
}

/**
 * Members of ImLeanCore and ImCore (the prototype chain of ImClient): a namespace, which becomes
 * an ImClient property, may not take one (`request` would replace the method every call goes
 * through). test/spec-limits.test.ts checks the list against the runtime's classes.
 */
export const CLIENT_MEMBERS: ReadonlySet<string> = new Set(['appName', 'baseUrl', 'clientId', 'constructor', 'credentialsRevoked', 'orgName', 'rateLimit', 'request', 'toJSON', 'transport', 'validatesRequests', 'withOptions']);

/** Members of every resource class besides its methods: a method may not take one. */
export const RESOURCE_MEMBERS: ReadonlySet<string> = new Set(['constructor', 'client']);
