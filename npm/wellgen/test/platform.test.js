'use strict';
// The launcher's choice of platform package, its message when none fits, and the package folders
// under npm/ against the one table of platforms and Cargo.toml's version.
// Run: node --test npm/   (scripts/check-npm does)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PLATFORMS, FALLBACK, platformFor, missingMessage, binaryPath, detectLibc } = require('../lib/platform.js');

const npmDir = path.join(__dirname, '..', '..');
const root = path.join(npmDir, '..');
const launcher = path.join(__dirname, '..', 'bin', 'wellgen.js');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

function cargoVersion() {
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const pkg = toml.split(/^\[/m).find((section) => section.startsWith('package]'));
  return pkg.match(/^version\s*=\s*"([^"]+)"/m)[1];
}

test('each supported platform gets its own package', () => {
  const cases = [
    [{ platform: 'linux', arch: 'x64', libc: 'glibc' }, 'wellgen-linux-x64-gnu'],
    [{ platform: 'linux', arch: 'x64', libc: 'musl' }, 'wellgen-linux-x64-musl'],
    [{ platform: 'linux', arch: 'arm64', libc: 'glibc' }, 'wellgen-linux-arm64-gnu'],
    [{ platform: 'darwin', arch: 'x64', libc: null }, 'wellgen-darwin-x64'],
    [{ platform: 'darwin', arch: 'arm64', libc: null }, 'wellgen-darwin-arm64'],
    [{ platform: 'win32', arch: 'x64', libc: null }, 'wellgen-win32-x64'],
  ];
  for (const [host, pkg] of cases) {
    assert.equal(platformFor(host)?.pkg, pkg, JSON.stringify(host));
  }
});

test('platforms without a prebuilt binary get none, musl never gets a glibc build', () => {
  for (const host of [
    { platform: 'linux', arch: 'arm64', libc: 'musl' },
    { platform: 'linux', arch: 'ia32', libc: 'glibc' },
    { platform: 'win32', arch: 'arm64', libc: null },
    { platform: 'win32', arch: 'ia32', libc: null },
    { platform: 'freebsd', arch: 'x64', libc: null },
  ]) {
    assert.equal(platformFor(host), null, JSON.stringify(host));
  }
});

test('no fitting package: the message names the platform, the ones that exist and cargo install', () => {
  const host = { platform: 'linux', arch: 'arm64', libc: 'musl' };
  assert.throws(() => binaryPath(host), (error) => {
    assert.equal(error.code, 'WELLGEN_NO_BINARY');
    assert.match(error.message, /no prebuilt binary for this platform, linux-arm64 \(musl\)\./);
    assert.match(error.message, /linux-x64 \(glibc\), linux-x64 \(musl\), linux-arm64 \(glibc\), darwin-x64, darwin-arm64, win32-x64/);
    assert.ok(error.message.endsWith(`build it instead: ${FALLBACK}`), error.message);
    return true;
  });
  assert.equal(FALLBACK, 'cargo install --locked wellgen');
});

test('a fitting package that npm left out: the message names it and how to get it', () => {
  // From this source folder no platform package resolves (the binaries are not committed).
  const message = missingMessage({ platform: 'darwin', arch: 'arm64', libc: null }, platformFor({ platform: 'darwin', arch: 'arm64', libc: null }));
  assert.match(message, /the package wellgen-darwin-arm64 for this platform, darwin-arm64, is not installed/);
  assert.match(message, /If the registry has no wellgen-darwin-arm64 .*scripts\/npm-pack OUTDIR/s);
  assert.match(message, /npm install wellgen-darwin-arm64/);
  assert.match(message, /cargo install --locked wellgen$/);
});

test('the launcher prints the message and exits 2 on a platform with no package', () => {
  // Pretend to be FreeBSD before the launcher reads process.platform.
  const fake = path.join(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'wellgen-launcher-')), 'freebsd.js');
  fs.writeFileSync(fake, "Object.defineProperty(process, 'platform', { value: 'freebsd' });\n");
  const run = spawnSync(process.execPath, ['--require', fake, launcher, '--version'], { encoding: 'utf8' });
  fs.rmSync(path.dirname(fake), { recursive: true });
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^wellgen: no prebuilt binary for this platform, freebsd-x64\./);
  assert.match(run.stderr, /cargo install --locked wellgen\n$/);
});

test('libc is detected on Linux only', () => {
  assert.equal(detectLibc('darwin'), null);
  assert.equal(detectLibc('win32'), null);
  if (process.platform === 'linux') assert.ok(['glibc', 'musl'].includes(detectLibc()));
});

test('the package folders agree with the table and with Cargo.toml', () => {
  const version = cargoVersion();
  const main = readJson(path.join(npmDir, 'wellgen', 'package.json'));
  assert.equal(main.version, version, 'npm/wellgen/package.json version vs Cargo.toml');
  assert.deepEqual(
    main.optionalDependencies,
    Object.fromEntries(PLATFORMS.map((p) => [p.pkg, version])),
    'optionalDependencies: every platform, pinned to the same version',
  );
  for (const p of PLATFORMS) {
    const folder = p.pkg.replace(/^wellgen-/, '');
    const pkg = readJson(path.join(npmDir, folder, 'package.json'));
    const exe = p.platform === 'win32' ? 'wellgen.exe' : 'wellgen';
    assert.equal(pkg.name, p.pkg);
    assert.equal(pkg.version, version, `npm/${folder}/package.json version vs Cargo.toml`);
    assert.deepEqual(pkg.os, [p.platform]);
    assert.deepEqual(pkg.cpu, [p.arch]);
    assert.deepEqual(pkg.libc, p.libc ? [p.libc] : undefined);
    assert.deepEqual(pkg.files, [`bin/${exe}`]);
  }
  const plugin = readJson(path.join(npmDir, 'netlify-plugin-wellgen', 'package.json'));
  assert.equal(plugin.version, version, 'npm/netlify-plugin-wellgen/package.json version vs Cargo.toml');
  assert.deepEqual(plugin.dependencies, { wellgen: version });
});

test('every package folder under npm/ is one of the above', () => {
  const folders = fs.readdirSync(npmDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const known = ['wellgen', 'netlify-plugin-wellgen', ...PLATFORMS.map((p) => p.pkg.replace(/^wellgen-/, ''))];
  assert.deepEqual(folders.sort(), known.sort());
});
