'use strict';
// The plugin's run of wellgen with a stand-in binary: what reaches the build log, and how a
// failure fails the build. Run: node --test npm/   (scripts/check-npm does)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const tempDir = require('./temp.js');

/** A stand-in for the wellgen binary: prints `stderr`, exits with `status`. */
function fakeBinary(dir, stderr, status) {
  const file = path.join(dir, 'wellgen');
  const script = `#!${process.execPath}\nprocess.stderr.write(${JSON.stringify(stderr)});\nprocess.exit(${status});\n`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

/** Runs the plugin's onBuild with `binary` as wellgen: everything it printed or reported. */
function runPlugin(binary, constants = { PUBLISH_DIR: 'public' }) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === 'wellgen') return { binaryPath: () => binary };
    return load.call(this, request, ...rest);
  };
  const printed = [];
  const write = { out: process.stdout.write, err: process.stderr.write };
  const log = console.log;
  process.stdout.write = (chunk) => printed.push(String(chunk)) > 0;
  process.stderr.write = (chunk) => printed.push(String(chunk)) > 0;
  console.log = (...parts) => printed.push(`${parts.join(' ')}\n`);
  const reported = { failed: [], shown: [] };
  try {
    const plugin = require('../index.js');
    plugin.onBuild({
      constants,
      inputs: {},
      utils: {
        build: { failBuild: (message) => reported.failed.push(message) },
        status: { show: (status) => reported.shown.push(status) },
      },
    });
  } finally {
    Module._load = load;
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    console.log = log;
  }
  return { printed: printed.join(''), ...reported };
}

const posix = process.platform !== 'win32';

test('a failing build shows wellgen\'s diagnostics once', { skip: !posix }, () => {
  const dir = tempDir('wellgen-plugin-');
  const diagnostic = 'service.toml:2:8: error[E-invalid-value]: must not be empty\n';
  const run = runPlugin(fakeBinary(dir, diagnostic, 1));
  assert.equal(run.failed.length, 1);
  assert.match(run.failed[0], /^wellgen exited with code 1:\n/);
  const everything = run.printed + run.failed.join('\n');
  assert.equal(everything.split('error[E-invalid-value]').length - 1, 1, everything);
});

test('a passing build prints wellgen\'s output and its summary line', { skip: !posix }, () => {
  const dir = tempDir('wellgen-plugin-');
  const built = 'built 21 files into public (21 written, 0 unchanged; no problems)\n';
  const run = runPlugin(fakeBinary(dir, built, 0));
  assert.deepEqual(run.failed, []);
  assert.ok(run.printed.includes(built), run.printed);
  assert.equal(run.shown[0].summary, built.trim());
});

test('with index.md in the publish folder, the edge function is written and named', { skip: !posix }, () => {
  const dir = tempDir('wellgen-plugin-');
  const publish = path.join(dir, 'public');
  fs.mkdirSync(publish);
  fs.writeFileSync(path.join(publish, 'index.md'), '# A site\n');
  const functions = path.join(dir, '.netlify', 'edge-functions');
  const built = 'built 21 files into public (21 written, 0 unchanged; no problems)\n';
  const constants = { PUBLISH_DIR: publish, INTERNAL_EDGE_FUNCTIONS_SRC: functions };
  const run = runPlugin(fakeBinary(dir, built, 0), constants);
  assert.deepEqual(run.failed, []);
  assert.deepEqual(fs.readdirSync(functions), ['wellgen-markdown.js']);
  assert.match(fs.readFileSync(path.join(functions, 'wellgen-markdown.js'), 'utf8'), /export const config = \{ path: "\/\*"/);
  assert.equal(run.shown[0].summary, `${built.trim()}; edge function wellgen-markdown serves Markdown twins`);
  // A failing build writes none.
  fs.rmSync(functions, { recursive: true });
  const failed = runPlugin(fakeBinary(dir, 'error: no\n', 1), constants);
  assert.equal(failed.failed.length, 1);
  assert.equal(fs.existsSync(functions), false);
});
