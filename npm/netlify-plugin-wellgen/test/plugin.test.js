'use strict';
// The plugin's run of wellgen with a stand-in binary: what reaches the build log, and how a
// failure fails the build. Run: node --test npm/   (scripts/check-npm does)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

/** A stand-in for the wellgen binary: prints `stderr`, exits with `status`. */
function fakeBinary(dir, stderr, status) {
  const file = path.join(dir, 'wellgen');
  const script = `#!${process.execPath}\nprocess.stderr.write(${JSON.stringify(stderr)});\nprocess.exit(${status});\n`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

/** Runs the plugin's onPostBuild with `binary` as wellgen: everything it printed or reported. */
function runPlugin(binary) {
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
    plugin.onPostBuild({
      constants: { PUBLISH_DIR: 'public' },
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellgen-plugin-'));
  const diagnostic = 'service.toml:2:8: error[E-invalid-value]: must not be empty\n';
  const run = runPlugin(fakeBinary(dir, diagnostic, 1));
  assert.equal(run.failed.length, 1);
  assert.match(run.failed[0], /^wellgen exited with code 1:\n/);
  const everything = run.printed + run.failed.join('\n');
  assert.equal(everything.split('error[E-invalid-value]').length - 1, 1, everything);
});

test('a passing build prints wellgen\'s output and its summary line', { skip: !posix }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellgen-plugin-'));
  const built = 'built 21 files into public (21 written, 0 unchanged; no problems)\n';
  const run = runPlugin(fakeBinary(dir, built, 0));
  assert.deepEqual(run.failed, []);
  assert.ok(run.printed.includes(built), run.printed);
  assert.equal(run.shown[0].summary, built.trim());
});
