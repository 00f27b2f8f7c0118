#!/usr/bin/env node
'use strict';
// `npx wellgen …`: runs the prebuilt binary of this platform with the same arguments, standard
// streams and exit code.

const { spawnSync } = require('node:child_process');
const { binaryPath } = require('../lib/platform.js');

let binary;
try {
  binary = binaryPath();
} catch (error) {
  if (error.code !== 'WELLGEN_NO_BINARY') throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2); // wellgen's own exit code for a usage or I/O error
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (result.error) {
  process.stderr.write(`wellgen: could not run ${binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Die of the same signal, so a shell or CI sees what the binary saw.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
