'use strict';
// The edge function the plugin writes, imported as Netlify would bundle it and run with real
// Request and Response objects: `context.next()` stands in for Netlify's origin (the publish
// folder's files, a 404 page for the rest). Run: node --test npm/   (scripts/check-npm does)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const markdown = require('../markdown.js');
const tempDir = require('./temp.js');

const INDEX_MD = '# Bookshelf\n\n> Books, lists and reviews.\n';
const PAGE = '<!doctype html>\n<title>A site</title>\n';
const NOT_FOUND = '<!doctype html>\n<title>Not found</title>\n';

/** A publish folder with a home page, its twin and wellgen's record of what it wrote. */
function publishFolder(files = {}) {
  const dir = tempDir('wellgen-markdown-');
  const all = {
    'index.html': PAGE,
    'index.md': INDEX_MD,
    '.wellgen-manifest': [
      '# Files written by wellgen and the SHA-256 of what it wrote.',
      '/.well-known/ folder',
      '/.well-known/ai sha256:00',
      '/_headers sha256:00',
      '/ai sha256:00',
      '/api/ folder',
      '/api/capabilities/ folder',
      '/api/capabilities/get_book sha256:00',
      '/api/discovery sha256:00',
      '/llms.txt sha256:00',
      '',
    ].join('\n'),
    ...files,
  };
  for (const [name, body] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  return dir;
}

/** Writes the function for `publishDir` and imports it: { handler, config }. */
async function load(publishDir) {
  const functionsDir = tempDir('wellgen-edge-');
  const written = markdown.writeEdgeFunction({ publishDir, functionsDir });
  assert.equal(path.basename(written), markdown.FILE);
  // Node reads a .js file outside a "type": "module" package as CommonJS; Deno as a module.
  const copy = path.join(functionsDir, 'wellgen-markdown.mjs');
  fs.copyFileSync(written, copy);
  const module = await import(pathToFileURL(copy).href);
  return { handler: module.default, config: module.config };
}

/**
 * A stand-in for Netlify's context: `next()` answers from `routes` (path -> { status, type,
 * body }), else with a 404 HTML page; every request it is given is recorded.
 */
function context(routes) {
  const seen = [];
  let current = null;
  return {
    seen,
    setRequest(request) {
      current = request;
    },
    async next(request) {
      // Like Netlify: with no argument, the request the function was invoked with (or was last given).
      if (request instanceof Request) current = request;
      seen.push({ method: current.method, path: new URL(current.url).pathname });
      const route = routes[new URL(current.url).pathname];
      const { status, type, body } = route ?? { status: 404, type: 'text/html; charset=utf-8', body: NOT_FOUND };
      return new Response(current.method === 'HEAD' ? null : body, { status, headers: { 'Content-Type': type } });
    },
  };
}

const site = {
  '/': { status: 200, type: 'text/html; charset=utf-8', body: PAGE },
  '/index.md': { status: 200, type: 'text/markdown; charset=UTF-8', body: INDEX_MD },
  '/guide': { status: 200, type: 'text/html; charset=utf-8', body: PAGE },
  '/guide/index.md': { status: 200, type: 'text/markdown', body: '# Guide\n' },
  '/style.css': { status: 200, type: 'text/css; charset=utf-8', body: 'h1{}' },
};

async function run(handler, routes, url, init = {}) {
  const request = new Request(new URL(url, 'https://site.example'), init);
  const ctx = context(routes);
  ctx.setRequest(request);
  const response = await handler(request, ctx);
  return { response, seen: ctx.seen, body: response.body ? await response.text() : '' };
}

test('/ with Accept: text/markdown gets index.md, as text/markdown with Vary: Accept', async () => {
  const { handler } = await load(publishFolder());
  const { response, body, seen } = await run(handler, site, '/', { headers: { Accept: 'text/markdown' } });
  assert.equal(response.status, 200);
  assert.equal(body, fs.readFileSync(path.join(publishFolder(), 'index.md'), 'utf8'));
  assert.equal(response.headers.get('Content-Type'), 'text/markdown; charset=utf-8');
  assert.equal(response.headers.get('Vary'), 'Accept');
  assert.deepEqual(seen, [{ method: 'GET', path: '/index.md' }]);
});

test('Accept names text/markdown among others, any case, with a q above 0', async () => {
  const { handler } = await load(publishFolder());
  for (const accept of ['text/html;q=0.9, TEXT/Markdown;q=0.5', 'text/markdown; q=1', 'text/markdown;q=0.01']) {
    const { response, body } = await run(handler, site, '/', { headers: { Accept: accept } });
    assert.equal(body, INDEX_MD, accept);
    assert.equal(response.headers.get('Content-Type'), 'text/markdown; charset=utf-8', accept);
  }
});

test('q=0 refuses Markdown: the page, with Vary: Accept', async () => {
  const { handler } = await load(publishFolder());
  for (const accept of ['text/markdown;q=0', 'text/html, text/markdown; Q=0.000', 'text/plain']) {
    const { response, body, seen } = await run(handler, site, '/', { headers: { Accept: accept } });
    assert.equal(body, PAGE, accept);
    assert.equal(response.headers.get('Content-Type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('Vary'), 'Accept');
    assert.deepEqual(seen, [{ method: 'GET', path: '/' }], accept);
  }
});

test('an HTML answer gets Vary: Accept, others pass through unchanged', async () => {
  const { handler } = await load(publishFolder());
  const page = await run(handler, site, '/', { headers: { Accept: 'text/html' } });
  assert.equal(page.response.headers.get('Vary'), 'Accept');
  assert.equal(page.body, PAGE);
  const css = await run(handler, site, '/style.css');
  assert.equal(css.response.headers.get('Vary'), null);
  assert.equal(css.body, 'h1{}');
  // Without a twin, a Markdown request gets the page, with Vary: Accept.
  const style = await run(handler, site, '/style.css', { headers: { Accept: 'text/markdown' } });
  assert.equal(style.body, 'h1{}');
  assert.deepEqual(style.seen.map((s) => s.path), ['/style.css.md', '/style.css/index.md', '/style.css']);
});

test('/page gets /page.md or else /page/index.md; /dir/ gets /dir/index.md; a .md path has none', async () => {
  const { handler } = await load(publishFolder());
  const routes = { ...site, '/about.md': { status: 200, type: 'text/markdown', body: '# About\n' } };
  const accept = { headers: { Accept: 'text/markdown' } };
  assert.equal((await run(handler, routes, '/about', accept)).body, '# About\n');
  const guide = await run(handler, routes, '/guide', accept);
  assert.equal(guide.body, '# Guide\n');
  assert.deepEqual(guide.seen.map((s) => s.path), ['/guide.md', '/guide/index.md']);
  const dir = await run(handler, routes, '/guide/', accept);
  assert.equal(dir.body, '# Guide\n');
  const md = await run(handler, routes, '/index.md', accept);
  assert.deepEqual(md.seen.map((s) => s.path), ['/index.md']);
  assert.equal(md.response.headers.get('Content-Type'), 'text/markdown; charset=UTF-8');
  assert.equal(md.response.headers.get('Vary'), null);
});

test('a twin answering 404 or text/html is skipped', async () => {
  const { handler } = await load(publishFolder());
  const accept = { headers: { Accept: 'text/markdown' } };
  // No /index.md: the 404 page is not a twin.
  const missing = { '/': site['/'] };
  const gone = await run(handler, missing, '/', accept);
  assert.equal(gone.response.status, 200);
  assert.equal(gone.body, PAGE);
  assert.equal(gone.response.headers.get('Vary'), 'Accept');
  assert.deepEqual(gone.seen.map((s) => s.path), ['/index.md', '/']);
  // A catch-all answering every path with the home page (200, text/html): not a twin either.
  const spa = { ...site, '/index.md': { status: 200, type: 'text/html; charset=utf-8', body: PAGE } };
  const fallback = await run(handler, spa, '/', accept);
  assert.equal(fallback.body, PAGE);
  assert.equal(fallback.response.headers.get('Content-Type'), 'text/html; charset=utf-8');
  assert.deepEqual(fallback.seen.map((s) => s.path), ['/index.md', '/']);
});

test('HEAD gets the twin\'s headers, no body', async () => {
  const { handler } = await load(publishFolder());
  const { response, body, seen } = await run(handler, site, '/', { method: 'HEAD', headers: { Accept: 'text/markdown' } });
  assert.equal(response.status, 200);
  assert.equal(body, '');
  assert.equal(response.headers.get('Content-Type'), 'text/markdown; charset=utf-8');
  assert.equal(response.headers.get('Vary'), 'Accept');
  assert.deepEqual(seen, [{ method: 'HEAD', path: '/index.md' }]);
});

test('POST passes through to the page, never to a twin', async () => {
  const { handler } = await load(publishFolder());
  const { response, body, seen } = await run(handler, site, '/', {
    method: 'POST',
    headers: { Accept: 'text/markdown' },
    body: 'x=1',
  });
  assert.equal(body, PAGE);
  assert.equal(response.headers.get('Content-Type'), 'text/html; charset=utf-8');
  assert.deepEqual(seen, [{ method: 'POST', path: '/' }]);
});

test('config: every path but /.well-known/ and wellgen\'s documents', async () => {
  const { config } = await load(publishFolder());
  assert.equal(config.path, '/*');
  assert.deepEqual(config.excludedPath, ['/.well-known/*', '/api/*', '/ai', '/llms.txt']);
  // Without wellgen's record, only /.well-known/.
  const bare = publishFolder();
  fs.rmSync(path.join(bare, '.wellgen-manifest'));
  assert.deepEqual((await load(bare)).config.excludedPath, ['/.well-known/*']);
});

test('no index.md: no function, and an earlier build\'s is removed', () => {
  const publishDir = publishFolder();
  const functionsDir = tempDir('wellgen-edge-');
  assert.ok(markdown.writeEdgeFunction({ publishDir, functionsDir }));
  fs.rmSync(path.join(publishDir, 'index.md'));
  assert.equal(markdown.writeEdgeFunction({ publishDir, functionsDir }), null);
  assert.deepEqual(fs.readdirSync(functionsDir), []);
});
