/**
 * The package name and version, for the User-Agent header. This file is a placeholder for the
 * runtime's own tests and is not copied into the package: the generator writes the package's
 * `src/sdk-version.ts` with the version of its package.json (emit-package-files.ts), so the
 * runtime never hard-codes a version.
 */
export const SDK_NAME = 'im-server-sdk';
export const SDK_VERSION = '0.0.0-dev';
