/**
 * The provenance marks of spec/openapi.yaml (`x-assumed`, `x-not-documented`) as sentences of
 * the description that Swagger UI, Scalar and Redocly show, because those tools hide `x-` keys.
 *
 * Each mark belongs to the nearest object whose description a viewer renders: the object that
 * carries the mark, or, for a mark inside an extension value (`x-pagination`, `x-upload-helper`,
 * …), the object that holds that extension (the operation). Used by scripts/spec-mark-sentences.ts
 * (which writes the sentences) and by test/openapi-spec.test.ts (which keeps them true).
 */

export type MarkKey = 'x-assumed' | 'x-not-documented';
export const MARK_KEYS: readonly MarkKey[] = ['x-assumed', 'x-not-documented'];

const LEAD: Record<MarkKey, string> = {
  'x-assumed': 'Assumed:',
  'x-not-documented': 'Not documented by the service:',
};

/** "Assumed: <reason>." — the reason verbatim, so a reader (and the test) finds it unchanged. */
export function markSentence(key: MarkKey, reason: string): string {
  const text = reason.trim();
  return `${LEAD[key]} ${text}${/[.!?]$/.test(text) ? '' : '.'}`;
}

export interface MarkOwner {
  /** Path of keys from the document root to the object whose description states the mark. */
  ownerPath: (string | number)[];
  owner: Record<string, unknown>;
  key: MarkKey;
  reason: string;
}

/** Every mark of `doc` with the object whose description must state it. */
export function markOwners(doc: unknown): MarkOwner[] {
  const out: MarkOwner[] = [];
  // `owner` is the nearest ancestor-or-self outside any extension value, with its path.
  const walk = (
    node: unknown,
    path: (string | number)[],
    owner: { path: (string | number)[]; node: any } | null,
  ): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, i], owner));
    if (!node || typeof node !== 'object') return;
    const here = owner ?? { path, node };
    for (const key of MARK_KEYS) {
      const reason = (node as Record<string, unknown>)[key];
      if (typeof reason === 'string') out.push({ ownerPath: here.path, owner: here.node, key, reason });
    }
    for (const [k, v] of Object.entries(node)) {
      if (MARK_KEYS.includes(k as MarkKey)) continue;
      // Inside an extension value the owner stays the object holding the extension.
      walk(v, [...path, k], owner ?? (k.startsWith('x-') ? here : null));
    }
  };
  walk(doc, [], null);
  return out;
}
