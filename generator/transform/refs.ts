/** `$ref`s to component schemas: the name of one, and every one a schema names (not followed). */
const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

export function componentNameOf(ref: unknown): string | undefined {
  return typeof ref === 'string' ? COMPONENT_REF.exec(ref)?.[1] : undefined;
}

export function componentRefsOf(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => componentRefsOf(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      const name = k === '$ref' ? componentNameOf(v) : undefined;
      if (name !== undefined) out.add(name);
      else componentRefsOf(v, out);
    }
  }
  return out;
}

/** True when `node`, with the component schemas it reaches, holds `format: <format>` somewhere. */
export function reachesFormat(
  node: unknown,
  components: ReadonlyMap<string, unknown>,
  format: string,
  seen = new Set<string>(),
): boolean {
  if (Array.isArray(node)) return node.some((n) => reachesFormat(n, components, format, seen));
  if (!node || typeof node !== 'object') return false;
  for (const [k, v] of Object.entries(node)) {
    if (k === 'format' && v === format) return true;
    const name = k === '$ref' ? componentNameOf(v) : undefined;
    if (name !== undefined) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (reachesFormat(components.get(name), components, format, seen)) return true;
    } else if (reachesFormat(v, components, format, seen)) return true;
  }
  return false;
}
