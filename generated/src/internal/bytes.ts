// Copied by im-openapi from templates/runtime/internal/bytes.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Byte helpers with no imports (internal, unstable): used by the client and by the callbacks
 * kit's edge-safe modules alike, so nothing here may touch Buffer or node built-ins.
 */

/** The chunks as one array; a single chunk is returned as it is. */
export function concatBytes(
  chunks: readonly Uint8Array[],
  total = chunks.reduce((n, c) => n + c.byteLength, 0),
): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
