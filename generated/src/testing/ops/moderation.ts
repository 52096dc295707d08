// Copied by im-openapi from templates/runtime/testing/ops/moderation.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Content moderation (seed 000 §4.11): items wait in status pending or auto_violation (the two
 * states the seed names); a decision carrying the item's version is safe to repeat, and a
 * decision on an item decided already, or with another version, answers version_conflict.
 * What a decided item's status becomes is not shown, and the spec lists only those two values: a
 * decided (or escalated) item has no `status` (it carries `decided_at` or `escalated_at`), and its
 * `version` moves on.
 */
import { invalidArgument, versionConflict } from '../errors.js';
import type { Json } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  itemList,
  keysetPage,
  page,
  pathParam,
  requireIn,
  requireUser,
  stringList,
  type HandlerContext,
  type OpHandler,
} from './context.js';

const OPEN_STATUSES = new Set(['pending', 'auto_violation']);

/** A new item (seeding and moderation.report): id, version 1, status pending, scene message unless given. */
export function newItem(c: Pick<HandlerContext, 'state' | 'now'>, input: Json): Json {
  const { content, ...fields } = input;
  const item = {
    scene: 'message',
    status: 'pending',
    ...copy(fields),
    id: typeof fields.id === 'string' ? fields.id : c.state.newId('item'),
    version: fields.version ?? 1,
    created_at: new Date(c.now()).toISOString(),
  };
  c.state.moderation.items.set(item.id, item);
  c.state.moderation.contents.set(item.id, content && typeof content === 'object' ? copy(content) : {});
  return item;
}

function itemOf(c: HandlerContext, id = pathParam(c, 'item_id')): Json {
  return requireIn(c.state.moderation.items, 'moderation item', id);
}

/** Applies a decision, or throws version_conflict (decided already, or another version). */
function decide(c: HandlerContext, item: Json, version: unknown): Json {
  if (!OPEN_STATUSES.has(item.status)) throw versionConflict(`moderation item ${item.id} was decided already`);
  if (version !== undefined && String(version) !== String(item.version))
    throw versionConflict(`moderation item ${item.id} is at version ${item.version}, not ${String(version)}`);
  const { item_ids: _ids, version: _v, ...decision } = changes(c);
  Object.assign(item, decision, { version: Number(item.version) + 1, decided_at: isoTime(c) });
  delete item.status;
  if (c.params.count_violation === true && typeof item.username === 'string') {
    const list = c.state.moderation.violations.get(item.username) ?? [];
    list.push({ item_id: item.id, scene: item.scene, decision: item.decision ?? null, at: item.decided_at });
    c.state.moderation.violations.set(item.username, list);
  }
  return item;
}

function wordListOf(c: HandlerContext): { list: Json; words: Set<string> } {
  return requireIn(c.state.moderation.wordLists, 'word list', pathParam(c, 'list_id'));
}

export const moderationHandlers: Record<string, OpHandler> = {
  'moderation.items': (c) => {
    const { scene, status } = c.params;
    // Keyset pages: a decided item leaves the pending filter without moving the next page's start.
    return keysetPage(
      c,
      [...c.state.moderation.items.values()],
      (i) => (scene === undefined || i.scene === scene) && (status === undefined || i.status === status),
      (i) => i.id,
    );
  },
  'moderation.item': (c) => ({ body: copy(itemOf(c)) }),
  'moderation.item_content': (c) => ({ body: copy(c.state.moderation.contents.get(itemOf(c).id) ?? {}) }),
  'moderation.decide': (c) => ({ body: copy(decide(c, itemOf(c), c.params.version)) }),
  'moderation.batch_decide': (c) => {
    const outcomes = stringList(c, 'item_ids').map((id) => {
      const item = c.state.moderation.items.get(id);
      if (!item) return { id, outcome: 'not_found' };
      try {
        decide(c, item, undefined);
        return { id, outcome: 'decided', version: item.version };
      } catch {
        return { id, outcome: 'version_conflict' };
      }
    });
    return { body: { items: outcomes } };
  },
  'moderation.escalate': (c) => {
    const item = itemOf(c);
    if (!OPEN_STATUSES.has(item.status)) throw versionConflict(`moderation item ${item.id} was decided already`);
    Object.assign(item, {
      version: Number(item.version) + 1,
      escalated_at: isoTime(c),
      ...(c.params.note !== undefined ? { note: c.params.note } : {}),
    });
    delete item.status;
    return { body: copy(item) };
  },
  'moderation.report': (c) => ({ body: copy(newItem(c, changes(c))) }),
  'moderation.check_text': (c) => {
    const text = typeof c.params.text === 'string' ? c.params.text.toLowerCase() : '';
    const matched = [...c.state.moderation.wordLists.values()].flatMap((l) =>
      [...l.words].filter((w) => text.includes(w.toLowerCase())),
    );
    return { body: { scene: c.params.scene, matched, violation: matched.length > 0 } };
  },
  'moderation.config': (c) => ({ body: copy(c.state.moderation.config) }),
  'moderation.update_config': (c) => {
    Object.assign(c.state.moderation.config, changes(c));
    return { body: copy(c.state.moderation.config) };
  },
  'moderation.stats': (c) => {
    const byStatus: Record<string, number> = {};
    for (const i of c.state.moderation.items.values()) {
      const status = i.status ?? (i.escalated_at ? 'escalated' : 'decided');
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
    return { body: { items: c.state.moderation.items.size, by_status: byStatus } };
  },
  'moderation.platform_actions': (c) => page(c, c.state.moderation.platformActions),
  'moderation.violations': (c) => {
    requireUser(c);
    return page(c, c.state.moderation.violations.get(pathParam(c, 'username')) ?? []);
  },
  'moderation.clear_violations': (c) => {
    requireUser(c);
    const n = c.state.moderation.violations.get(pathParam(c, 'username'))?.length ?? 0;
    c.state.moderation.violations.delete(pathParam(c, 'username'));
    return { body: { count: n } };
  },
  'moderation.word_lists': (c) =>
    itemList([...c.state.moderation.wordLists.values()].map((l) => ({ ...l.list, word_count: l.words.size }))),
  'moderation.create_word_list': (c) => {
    const name = c.params.name;
    if (typeof name !== 'string' || name === '') throw invalidArgument('name', 'required, a non-empty string');
    const list_id = c.state.newId('list');
    const list = { ...copy(changes(c)), list_id, name, created_at: isoTime(c) };
    c.state.moderation.wordLists.set(list_id, { list, words: new Set() });
    return { body: copy(list) };
  },
  'moderation.word_list': (c) => ({ body: copy(wordListOf(c).list) }),
  'moderation.update_word_list': (c) => {
    const l = wordListOf(c);
    Object.assign(l.list, changes(c), { list_id: l.list.list_id });
    return { body: copy(l.list) };
  },
  'moderation.delete_word_list': (c) => {
    wordListOf(c);
    c.state.moderation.wordLists.delete(pathParam(c, 'list_id'));
    return { body: {} };
  },
  'moderation.words': (c) =>
    page(
      c,
      [...wordListOf(c).words].map((word) => ({ word })),
    ),
  'moderation.add_words': (c) => {
    const l = wordListOf(c);
    const words = stringList(c, 'words');
    for (const w of words) l.words.add(w);
    return { body: { added: words.length } };
  },
  'moderation.remove_words': (c) => {
    const l = wordListOf(c);
    return { body: { count: stringList(c, 'words').filter((w) => l.words.delete(w)).length } };
  },
};
