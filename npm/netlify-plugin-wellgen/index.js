'use strict';
// Netlify build plugin: after the site is built, `wellgen build SOURCE -o PUBLISH_DIR --host
// netlify` writes the discovery documents and merges wellgen's rules into the site's `_headers`
// and `_redirects`. A failed check fails the build with wellgen's own diagnostics, printed once
// (in the failure message).

const { spawnSync } = require('node:child_process');

/** `targets` as Netlify passes it: a TOML array, a comma-separated string, or nothing. */
function targetArgs(targets) {
  if (targets === undefined || targets === null || targets === '') return [];
  const list = (Array.isArray(targets) ? targets : String(targets).split(','))
    .map((target) => String(target).trim())
    .filter(Boolean);
  return list.length ? ['--target', list.join(',')] : [];
}

/** The arguments of the wellgen run for these constants and inputs. */
function buildArgs({ constants, inputs }) {
  const source = inputs.source || 'service.toml';
  return ['build', source, '-o', constants.PUBLISH_DIR, '--host', 'netlify', ...targetArgs(inputs.targets)];
}

// Netlify accepts only event handlers as exports.
module.exports = {
  onPostBuild({ constants, inputs, utils }) {
    let binary;
    try {
      binary = require('wellgen').binaryPath();
    } catch (error) {
      return utils.build.failBuild(`wellgen could not start.\n${error.message}`);
    }
    const args = buildArgs({ constants, inputs });
    console.log(`$ wellgen ${args.join(' ')}`);
    const run = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.stdout) process.stdout.write(run.stdout);
    if (run.error) {
      if (run.stderr) process.stderr.write(run.stderr);
      return utils.build.failBuild(`wellgen could not run: ${run.error.message}`, { error: run.error });
    }
    if (run.status !== 0) {
      // The diagnostics go into the failure message, which Netlify prints: once, not twice.
      const why = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.status}`;
      return utils.build.failBuild(`wellgen ${why}:\n${(run.stderr || '').trim()}`);
    }
    if (run.stderr) process.stderr.write(run.stderr);
    // wellgen's own closing line: "built N files into DIR (N written, N unchanged; problems)".
    const summary = (run.stderr || '').split('\n').reverse().find((line) => line.startsWith('built '));
    utils.status.show({
      title: 'wellgen',
      summary: summary || `built ${inputs.source || 'service.toml'} into ${constants.PUBLISH_DIR}`,
    });
  },
};
