'use strict';
// Fresh folders under the system's temporary one, removed when the tests of the file that asked
// for them end. Not a test file: `node --test` runs it too, and it registers no test.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after } = require('node:test');

const made = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder whose name starts with `prefix`. */
module.exports = function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
