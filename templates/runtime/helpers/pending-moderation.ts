/**
 * The pending-item helper of seed 4.11: walks moderation items in status pending or
 * auto_violation (20 at a time by default, optionally one scene), asks the caller's `decide`
 * for each, and submits the decision with the item's version, so a repeat is safe. An item
 * already decided by someone else answers version_conflict: it is skipped and reported, never
 * retried or thrown.
 */
import { listPages } from '../core/pagination.js';
import type { ImLeanCore } from '../core/lean-core.js';
import { ImError, VersionConflictError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';

export interface PendingDecision {
  decision?: string;
  actions?: Record<string, unknown>[];
  count_violation?: boolean;
  note?: string;
  [key: string]: unknown;
}

/** `TScene`: the scenes the list operation takes (the generated helper passes the spec's enum, so a typo does not compile). */
export interface PendingItemsOptions<TItem, TScene extends string = string> extends RequestOptions {
  /** Only items of this scene. */
  scene?: TScene | undefined;
  /** Items fetched per page (default 20). */
  pageSize?: number | undefined;
  /** Statuses walked, in order (default pending, then auto_violation). */
  statuses?: readonly string[] | undefined;
  /** Return a decision to submit, or null to leave the item alone. */
  decide: (item: TItem) => PendingDecision | null | Promise<PendingDecision | null>;
}

export interface PendingItemsReport<TItem> {
  decided: { item: TItem; itemId: string }[];
  /** Decided by someone else first (version_conflict): skipped. */
  skipped: { item: TItem; itemId: string; reason: 'version_conflict'; mayBeEchoOfEarlierAttempt: boolean }[];
  /** `decide` returned null. */
  left: { item: TItem; itemId: string }[];
  failed: { item: TItem; itemId: string; error: ImError }[];
}

export interface PendingItemsOperations {
  items: OperationSpec;
  decide: OperationSpec;
  /** Item fields that hold its id and version (x-assumed in the spec). */
  idField: string;
  versionField: string;
}

export async function processPendingItems<TItem extends Record<string, unknown>>(
  client: ImLeanCore,
  ops: PendingItemsOperations,
  options: PendingItemsOptions<TItem, string>,
): Promise<PendingItemsReport<TItem>> {
  const { scene, pageSize = 20, statuses = ['pending', 'auto_violation'], decide, ...requestOptions } = options;
  const report: PendingItemsReport<TItem> = { decided: [], skipped: [], left: [], failed: [] };
  const seen = new Set<string>();
  for (const status of statuses) {
    const params: Record<string, unknown> = { status, limit: pageSize, ...(scene !== undefined ? { scene } : {}) };
    for await (const item of listPages<unknown, TItem>(client, ops.items, params, requestOptions)) {
      const itemId = item[ops.idField];
      if (typeof itemId !== 'string' && typeof itemId !== 'number') {
        throw new ImError(
          `A moderation item has no \`${ops.idField}\`; the helper cannot decide it. The item fields are not documented by the service.`,
        );
      }
      const id = String(itemId);
      if (seen.has(id)) continue; // an item can move between statuses while we walk
      seen.add(id);
      const decision = await decide(item);
      if (decision === null) {
        report.left.push({ item, itemId: id });
        continue;
      }
      const version = item[ops.versionField];
      try {
        await client.request(
          ops.decide,
          { ...decision, item_id: id, ...(version !== undefined ? { version } : {}) },
          requestOptions,
        );
        report.decided.push({ item, itemId: id });
      } catch (err) {
        // A resend answered version_conflict: our own first attempt may have decided it.
        if (err instanceof VersionConflictError)
          report.skipped.push({
            item,
            itemId: id,
            reason: 'version_conflict',
            mayBeEchoOfEarlierAttempt: err.mayBeEchoOfEarlierAttempt,
          });
        else if (err instanceof ImError) report.failed.push({ item, itemId: id, error: err });
        else throw err;
      }
    }
  }
  return report;
}
