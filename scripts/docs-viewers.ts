/**
 * Static Swagger UI and Scalar pages of spec/openapi.yaml in dist-artifacts/docs-viewers/, built
 * from the pinned devDependencies (swagger-ui-dist 5.35.0, @scalar/api-reference 1.72.1) so they
 * load nothing from a CDN. They show the spec as users of those tools meet it: the summaries, the
 * descriptions (which state the x-assumed / x-not-documented marks, since both tools hide `x-`
 * keys) and the error examples. test/ecosystem/docs-viewers.test.ts opens them in headless chromium.
 *
 * The spec is embedded as a script (`spec.js` sets `window.IM_SPEC`) rather than fetched, so the
 * pages also work from file://, where chromium refuses fetch().
 *
 * Usage: npx tsx scripts/docs-viewers.ts
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
export const VIEWERS_DIR = join(root, 'dist-artifacts/docs-viewers');
export const VIEWER_PAGES = { swaggerUi: 'swagger-ui/index.html', scalar: 'scalar/index.html' } as const;

const specScript = (spec: unknown): string => `window.IM_SPEC = ${JSON.stringify(spec)};\n`;

function swaggerUiHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Messaging service REST API — Swagger UI</title>
<link rel="stylesheet" href="swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="spec.js"></script>
<script src="swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({
  spec: window.IM_SPEC,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null, // no request to the online validator badge
  defaultModelsExpandDepth: 0,
});
</script></body></html>
`;
}

function scalarHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Messaging service REST API — Scalar</title></head>
<body><div id="app"></div>
<script src="spec.js"></script>
<script src="standalone.js"></script>
<script>
Scalar.createApiReference('#app', {
  content: window.IM_SPEC,
  withDefaultFonts: false, // the default fonts come from a CDN
  hideClientButton: true,
  telemetry: false,
});
</script></body></html>
`;
}

/** Writes both pages under `outDir` (emptied first); `spec` defaults to spec/openapi.yaml. */
export function buildViewerPages(opts: { spec?: unknown; outDir?: string } = {}): {
  swaggerUi: string;
  scalar: string;
} {
  const spec = opts.spec ?? parse(readFileSync(join(root, 'spec/openapi.yaml'), 'utf8'));
  const outDir = opts.outDir ?? VIEWERS_DIR;
  rmSync(outDir, { recursive: true, force: true });
  const swaggerDir = join(outDir, 'swagger-ui');
  const scalarDir = join(outDir, 'scalar');
  mkdirSync(swaggerDir, { recursive: true });
  mkdirSync(scalarDir, { recursive: true });

  const swaggerDist = join(root, 'node_modules/swagger-ui-dist');
  for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css']) cpSync(join(swaggerDist, f), join(swaggerDir, f));
  writeFileSync(join(swaggerDir, 'spec.js'), specScript(spec));
  writeFileSync(join(swaggerDir, 'index.html'), swaggerUiHtml());

  // standalone.js loads its chunks/ relative to itself.
  const scalarDist = join(root, 'node_modules/@scalar/api-reference/dist/browser');
  cpSync(join(scalarDist, 'standalone.js'), join(scalarDir, 'standalone.js'));
  cpSync(join(scalarDist, 'chunks'), join(scalarDir, 'chunks'), {
    recursive: true,
    filter: (src) => !src.endsWith('.map'),
  });
  writeFileSync(join(scalarDir, 'spec.js'), specScript(spec));
  writeFileSync(join(scalarDir, 'index.html'), scalarHtml());
  return { swaggerUi: join(outDir, VIEWER_PAGES.swaggerUi), scalar: join(outDir, VIEWER_PAGES.scalar) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pages = buildViewerPages();
  console.log(`Swagger UI → ${pages.swaggerUi.slice(root.length)}\nScalar → ${pages.scalar.slice(root.length)}`);
}
