/**
 * `npm run docs`: static docs of both specs in dist-artifacts/docs/, readable offline.
 *
 * - rest.html: Redocly build-docs of spec/openapi.yaml (--inlineBundle: no CDN script);
 * - callbacks.html: Redocly build-docs of spec/callbacks.asyncapi.yaml (channels, messages, headers);
 * - callbacks-reference.html: our own self-contained page rendered from the parsed AsyncAPI
 *   document: the three requests with headers and body fields, every event type and hook type,
 *   and the delivery rules (the x-* extensions, which Redocly does not show);
 * - index.html: links to the three.
 *
 * `npm run docs -- --screenshot` also opens each page in headless chromium and writes
 * dist-artifacts/docs/screenshots/<page>.png.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser } from '@asyncapi/parser';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DOCS_DIR = join(root, 'dist-artifacts/docs');
export const PAGES = ['index.html', 'rest.html', 'callbacks.html', 'callbacks-reference.html'] as const;

function redoclyBuildDocs(spec: string, out: string, title: string): void {
  const r = spawnSync(
    join(root, 'node_modules/.bin/redocly'),
    ['build-docs', spec, '--inlineBundle', '--title', title, '-o', out],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
    },
  );
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout}\n${r.stderr}\n`);
    throw new Error(`redocly build-docs ${spec} failed (exit ${r.status})`);
  }
  console.log(`redocly build-docs ${spec} → ${out.slice(root.length)}`);
}

// ------------------------------------------------------------------ callbacks reference page

const esc = (s: unknown): string =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Any YAML value as nested HTML (definition lists for objects). Parser-added keys are skipped. */
function renderValue(v: unknown): string {
  if (v === null || v === undefined) return '<code>null</code>';
  if (typeof v !== 'object') return typeof v === 'string' ? esc(v) : `<code>${esc(v)}</code>`;
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return v.map((x) => renderValue(x)).join(', ');
    return `<ul>${v.map((x) => `<li>${renderValue(x)}</li>`).join('')}</ul>`;
  }
  const entries = Object.entries(v).filter(([k]) => !k.startsWith('x-parser-'));
  return `<dl>${entries.map(([k, x]) => `<dt>${esc(k)}</dt><dd>${renderValue(x)}</dd>`).join('')}</dl>`;
}

function typeOf(schema: any): string {
  if (!schema || typeof schema !== 'object') return '';
  if ('const' in schema) return `const ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `enum ${schema.enum.map((e: unknown) => JSON.stringify(e)).join(' | ')}`;
  const t = Array.isArray(schema.type)
    ? schema.type.join(' | ')
    : (schema.type ?? (schema.anyOf ? 'any of' : schema.oneOf ? 'one of' : ''));
  return [t, schema.format, schema.pattern ? `pattern ${schema.pattern}` : ''].filter(Boolean).join(', ');
}

/** Top-level properties of an object schema, following allOf. */
function properties(schema: any): { name: string; schema: any; required: boolean }[] {
  const out = new Map<string, { name: string; schema: any; required: boolean }>();
  const visit = (s: any): void => {
    if (!s || typeof s !== 'object') return;
    for (const part of s.allOf ?? []) visit(part);
    const req = new Set<string>(s.required ?? []);
    for (const [name, p] of Object.entries<any>(s.properties ?? {})) {
      out.set(name, { name, schema: p, required: req.has(name) || (out.get(name)?.required ?? false) });
    }
  };
  visit(schema);
  return [...out.values()];
}

function fieldTable(schema: any, caption: string): string {
  const rows = properties(schema);
  if (!rows.length) return '';
  return `<table><caption>${esc(caption)}</caption><thead><tr><th>field</th><th>type</th><th>required</th><th>description</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td><code>${esc(r.name)}</code></td><td>${esc(typeOf(r.schema))}</td><td>${r.required ? 'yes' : ''}</td><td>${esc(r.schema.description ?? '')}${r.schema['x-assumed'] ? ` <span class="mark">assumed: ${esc(r.schema['x-assumed'])}</span>` : ''}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

export async function callbacksReferenceHtml(specPath = join(root, 'spec/callbacks.asyncapi.yaml')): Promise<string> {
  const { document, diagnostics } = await new Parser().parse(readFileSync(specPath, 'utf8'));
  const errors = diagnostics.filter((d) => d.severity === 0);
  if (!document || errors.length)
    throw new Error(`AsyncAPI parser refused the callbacks spec: ${errors.map((e) => e.message).join('; ')}`);
  const doc = document.json() as any;
  const requestMessages = new Set(['verify', 'event', 'hook']);
  const delivery = doc.operations.receiveEvent?.['x-delivery'] ?? {};
  const bestEffort = new Set<string>(delivery.bestEffort?.types ?? []);
  const versionField = new Map<string, string>(
    (delivery.newness?.orderingVersionFields ?? []).map((o: any) => [o.eventType, o.field]),
  );

  const eventMessages = Object.values<any>(doc.components.messages).filter(
    (m) => !requestMessages.has(m.name) && !/Answer$/.test(m.name),
  );
  const hookTypes: any[] = (doc.components.schemas.HookType?.anyOf ?? []).filter((b: any) => 'const' in b);

  const operations = Object.entries<any>(doc.operations).map(([id, op]) => {
    const msg = op.messages?.[0] ?? {};
    const reply = op.reply ?? {};
    const extensions = Object.entries<any>(op).filter(([k]) => k.startsWith('x-') && !k.startsWith('x-parser-'));
    return `<section class="op" id="op-${esc(id)}">
<h3>${esc(op.title ?? id)} <small><code>${esc(id)}</code> · message <code>${esc(msg.name ?? '')}</code></small></h3>
<p>${esc(op.summary ?? '')}</p>
<div class="desc">${esc(op.description ?? '')}</div>
${fieldTable(msg.headers, `Headers of ${msg.name}`)}
${fieldTable(msg.payload, `Body fields of ${msg.name}`)}
<h4>Answer</h4>${renderValue({ message: reply.messages?.[0]?.name, ...(reply['x-answer'] ?? {}) })}
${extensions.map(([k, v]) => `<h4>${esc(k)}</h4>${renderValue(v)}`).join('\n')}
</section>`;
  });

  const eventRows = eventMessages
    .map((m) => {
      const data = properties(m.payload).find((p) => p.name === 'data')?.schema;
      const dataFields = properties(data).map((p) => p.name);
      return `<tr class="event-type"><td><code>${esc(m.name)}</code></td><td>${esc(m.summary ?? '')}</td><td>${bestEffort.has(m.name) ? 'best effort' : 'at least once'}</td><td>${versionField.has(m.name) ? `<code>${esc(versionField.get(m.name))}</code>` : ''}</td><td>${dataFields.map((f) => `<code>${esc(f)}</code>`).join(' ')}</td></tr>`;
    })
    .join('\n');

  const rootRules = Object.entries<any>(doc).filter(([k]) => k.startsWith('x-') && !k.startsWith('x-parser-'));
  const title = `${doc.info.title} (AsyncAPI ${doc.asyncapi}, version ${doc.info.version})`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}: reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{background:#1f3a5f;color:#fff;padding:18px 32px}header h1{margin:0;font-size:24px}header p{margin:4px 0 0;opacity:.85}header code{background:rgba(255,255,255,.18);color:#fff}
nav{padding:8px 32px;background:#e8eef6}nav a{margin-right:18px}
main{padding:8px 32px 48px;max-width:1200px}
h2{border-bottom:2px solid #1f3a5f;padding-bottom:4px;margin-top:36px}
.desc{white-space:pre-wrap;background:#fff;border:1px solid #dde3ea;padding:10px 14px;border-radius:6px}
table{border-collapse:collapse;margin:12px 0;width:100%;background:#fff}caption{text-align:left;font-weight:600;padding:6px 0}
th,td{border:1px solid #dde3ea;padding:4px 8px;text-align:left;vertical-align:top}th{background:#eef2f7}
dl{margin:4px 0 4px 8px}dt{font-weight:600;color:#1f3a5f}dd{margin:0 0 4px 16px}
code{background:#eef2f7;padding:0 3px;border-radius:3px}.mark{color:#7a4b00;font-size:13px}
.op{border-left:4px solid #1f3a5f;padding-left:16px;margin:24px 0}
</style></head>
<body>
<header><h1>${esc(doc.info.title)}</h1><p>AsyncAPI ${esc(doc.asyncapi)} · version ${esc(doc.info.version)} · rendered by <code>npm run docs</code> from spec/callbacks.asyncapi.yaml</p></header>
<nav><a href="#requests">Requests</a><a href="#event-types">Event types (${eventMessages.length})</a><a href="#hook-types">Hook types (${hookTypes.length})</a><a href="#rules">Rules</a><a href="index.html">All docs</a></nav>
<main>
<div class="desc">${esc(doc.info.description ?? '')}</div>
<h2 id="requests">Requests the receiver gets</h2>
${operations.join('\n')}
<h2 id="event-types">Event types</h2>
<p>Items of the <code>events</code> array of an event callback. New event types will be added: receivers ignore unknown ones without returning an error.</p>
<table id="event-type-table"><thead><tr><th>type</th><th>summary</th><th>delivery</th><th>ordering version field</th><th>data fields</th></tr></thead><tbody>
${eventRows}
</tbody></table>
<h2 id="hook-types">Hook types</h2>
<table><thead><tr><th>hook (header X-IM-Hook, body hook)</th><th>description</th><th>provenance</th></tr></thead><tbody>
${hookTypes.map((h) => `<tr class="hook-type"><td><code>${esc(h.const)}</code></td><td>${esc(h.description ?? '')}</td><td>${h['x-assumed'] ? `<span class="mark">assumed: ${esc(h['x-assumed'])}</span>` : 'seed'}</td></tr>`).join('\n')}
</tbody></table>
<h2 id="rules">Rules (document-level extensions)</h2>
${rootRules.map(([k, v]) => `<section><h3><code>${esc(k)}</code></h3>${renderValue(v)}</section>`).join('\n')}
</main></body></html>
`;
}

function indexHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>im-openapi docs</title>
<style>body{font:16px/1.6 system-ui,sans-serif;margin:40px auto;max-width:760px;color:#1d2330}</style></head>
<body><h1>im-openapi docs</h1>
<ul>
<li><a href="rest.html">REST API</a> — spec/openapi.yaml, 178 operations (Redocly build-docs)</li>
<li><a href="callbacks.html">Outbound callbacks</a> — spec/callbacks.asyncapi.yaml (Redocly build-docs)</li>
<li><a href="callbacks-reference.html">Callbacks reference</a> — event types, hook types, headers and delivery rules</li>
</ul>
<p>Built by <code>npm run docs</code>; the pages load no script from the network.</p>
</body></html>
`;
}

/** Opens each page in headless chromium and writes dist-artifacts/docs/screenshots/<page>.png. */
export async function screenshots(): Promise<string[]> {
  const { launchBrowser } = await import('./lib/browser.js');
  const outDir = join(DOCS_DIR, 'screenshots');
  mkdirSync(outDir, { recursive: true });
  const browser = await launchBrowser();
  const written: string[] = [];
  try {
    const page = await browser.newPage();
    for (const name of PAGES) {
      await page.goto(pathToFileURL(join(DOCS_DIR, name)).href, { waitUntil: 'load', timeout: 60_000 });
      if (name === 'rest.html' || name === 'callbacks.html')
        await page.waitForSelector('.api-content, [data-section-id], h1', { timeout: 30_000 });
      await page.waitForTimeout(1_000);
      const file = join(outDir, name.replace(/\.html$/, '.png'));
      await page.screenshot({ path: file });
      written.push(file);
    }
  } finally {
    await browser.close();
  }
  return written;
}

export async function buildDocs(): Promise<void> {
  mkdirSync(DOCS_DIR, { recursive: true });
  redoclyBuildDocs('spec/openapi.yaml', join(DOCS_DIR, 'rest.html'), 'Messaging service REST API');
  redoclyBuildDocs(
    'spec/callbacks.asyncapi.yaml',
    join(DOCS_DIR, 'callbacks.html'),
    'Messaging service outbound callbacks',
  );
  writeFileSync(join(DOCS_DIR, 'callbacks-reference.html'), await callbacksReferenceHtml());
  writeFileSync(join(DOCS_DIR, 'index.html'), indexHtml());
  console.log(`callbacks reference and index → ${DOCS_DIR.slice(root.length)}/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildDocs();
    if (process.argv.includes('--screenshot')) {
      for (const f of await screenshots()) console.log(`screenshot → ${f.slice(root.length)}`);
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
