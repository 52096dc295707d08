/**
 * Keys of the shared stores (token store, quota store): readable (URLs keep their `:` and `/`),
 * never a secret, and built from parts escaped by one rule, so that a separator inside a name can
 * never make two apps or clients share a key (an org named "a|b" once collided with another app:
 * the second client got 403 for the token's whole life).
 */

/**
 * `part` with every character `specials` matches (a global class that includes `%`) written as
 * `%XX` (uppercase hex). Each key passes its own separators: the App Token key `/[%|#]/g` (its
 * `v2` format, fixed: keys already in shared stores must still be found), the quota key also
 * `{` and `}` (its Redis Cluster hash tag).
 */
export function escapeStoreKeyPart(part: string, specials: RegExp): string {
  return part.replace(specials, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const QUOTA_KEY_SPECIALS = /[%|#{}]/g;

/** The store key of an application's quota (base URL, org#app; never a secret). `{…}` keeps its keys on one Redis Cluster slot. */
export function quotaKey(baseUrl: string, orgName: string, appName: string): string {
  const e = (part: string): string => escapeStoreKeyPart(part, QUOTA_KEY_SPECIALS);
  return `im-openapi:quota:v1:{${e(baseUrl)}|${e(orgName)}#${e(appName)}}`;
}

/** The store key of a host's exchange pacing (its gate is `<key>:gate`, on the same Cluster slot). */
export function exchangePaceKey(host: string): string {
  return `im-openapi:exchange-pace:v1:{${host.replace(/[{}]/g, '_')}}`;
}
