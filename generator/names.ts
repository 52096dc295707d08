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
