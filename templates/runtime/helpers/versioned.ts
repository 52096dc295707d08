/**
 * Versioned lists (friends, blacklist, group members, push conversation mutes): fetch every page
 * with `known_version`, and hand back the items and the version to pass next time.
 */
import { listPages } from '../core/pagination.js';
import type { ImLeanCore } from '../core/lean-core.js';
import { ImError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';

export interface VersionedSnapshot<TItem> {
  items: TItem[];
  /** The list version the service reported; pass it as `known_version` next time. */
  version: string | number | undefined;
  /** The version the call was made with (undefined on a first fetch). */
  knownVersion: string | number | undefined;
  /** Pages fetched. */
  pages: number;
}

export async function fetchVersionedList<TItem>(
  client: ImLeanCore,
  op: OperationSpec,
  params: Record<string, unknown>,
  options?: RequestOptions,
): Promise<VersionedSnapshot<TItem>> {
  if (op.pagination?.kind !== 'versioned') throw new ImError(`${op.id} is not a versioned list.`);
  const items: TItem[] = [];
  let version: string | number | undefined;
  let pages = 0;
  for await (const page of (await listPages<unknown, TItem>(client, op, params, options)).pages()) {
    pages++;
    items.push(...page.items);
    // The last page's version wins: it describes the list as the walk finished it.
    if (page.version !== undefined) version = page.version;
  }
  const known = params.known_version;
  return {
    items,
    version,
    knownVersion: typeof known === 'string' || typeof known === 'number' ? known : undefined,
    pages,
  };
}
