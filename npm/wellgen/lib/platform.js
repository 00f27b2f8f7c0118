'use strict';
// Which prebuilt wellgen binary fits this machine, and where npm put it.
//
// The pattern of esbuild, Biome and oxlint: the `wellgen` package lists one package per platform
// in `optionalDependencies`; npm installs only the one whose `os`, `cpu` and `libc` fit, and this
// module finds it. The table below is the one list of platforms: the package folders under npm/,
// the `optionalDependencies` and the release targets are checked against it (test/).

const fs = require('node:fs');
const path = require('node:path');

/** Every platform with a prebuilt binary: npm's names for it, and the Rust target it is built for. */
const PLATFORMS = [
  { pkg: 'wellgen-linux-x64-gnu', platform: 'linux', arch: 'x64', libc: 'glibc', triple: 'x86_64-unknown-linux-gnu' },
  { pkg: 'wellgen-linux-x64-musl', platform: 'linux', arch: 'x64', libc: 'musl', triple: 'x86_64-unknown-linux-musl' },
  { pkg: 'wellgen-linux-arm64-gnu', platform: 'linux', arch: 'arm64', libc: 'glibc', triple: 'aarch64-unknown-linux-gnu' },
  { pkg: 'wellgen-darwin-x64', platform: 'darwin', arch: 'x64', libc: null, triple: 'x86_64-apple-darwin' },
  { pkg: 'wellgen-darwin-arm64', platform: 'darwin', arch: 'arm64', libc: null, triple: 'aarch64-apple-darwin' },
  { pkg: 'wellgen-win32-x64', platform: 'win32', arch: 'x64', libc: null, triple: 'x86_64-pc-windows-msvc' },
];

const FALLBACK = 'cargo install --locked wellgen';

/**
 * The C library of this Linux: 'glibc' or 'musl' (null elsewhere). Node's diagnostic report names
 * the glibc version it runs against, and has no such field on musl (Alpine): the check esbuild,
 * Biome and oxlint use, with no child process.
 */
function detectLibc(platform = process.platform) {
  if (platform !== 'linux') return null;
  try {
    // Skip the report's network section (Node >= 20.13): it can stall on slow DNS.
    if ('excludeNetwork' in process.report) process.report.excludeNetwork = true;
    const report = process.report.getReport();
    const header = typeof report === 'string' ? JSON.parse(report).header : report.header;
    return header.glibcVersionRuntime ? 'glibc' : 'musl';
  } catch {
    // No report (a trimmed Node): musl's loader leaves its name on ldd.
    try {
      return fs.readFileSync('/usr/bin/ldd', 'latin1').includes('musl') ? 'musl' : 'glibc';
    } catch {
      return 'glibc';
    }
  }
}

/** The platform package for this machine, or null when wellgen publishes none for it. */
function platformFor({ platform, arch, libc }) {
  return (
    PLATFORMS.find(
      (p) => p.platform === platform && p.arch === arch && (p.libc === null || p.libc === libc),
    ) ?? null
  );
}

function describe({ platform, arch, libc }) {
  return libc ? `${platform}-${arch} (${libc})` : `${platform}-${arch}`;
}

/** What a user reads when no package fits, or npm did not install the one that does. */
function missingMessage(host, fit) {
  const lines = [];
  if (fit) {
    lines.push(
      `wellgen: the package ${fit.pkg} for this platform, ${describe(host)}, is not installed.`,
      `npm skips optional dependencies with --no-optional / --omit=optional, or when a lockfile was`,
      `made on another platform: reinstall with optional dependencies (npm install ${fit.pkg}).`,
      `If the registry has no ${fit.pkg} (a version not yet published), the binary comes from a`,
      `clone of the repository: \`scripts/npm-pack OUTDIR\` packs it, \`cargo install --path .\` installs it.`,
    );
  } else {
    const known = PLATFORMS.map((p) => describe(p)).join(', ');
    lines.push(
      `wellgen: no prebuilt binary for this platform, ${describe(host)}.`,
      `Prebuilt binaries exist for: ${known}.`,
    );
  }
  lines.push(`With a Rust toolchain, build it instead: ${FALLBACK}`);
  return lines.join('\n');
}

/**
 * The path of the wellgen binary for this machine; throws an Error whose message says what to
 * do when there is none.
 */
function binaryPath(host = { platform: process.platform, arch: process.arch, libc: detectLibc() }) {
  const fit = platformFor(host);
  if (fit) {
    const exe = host.platform === 'win32' ? 'wellgen.exe' : 'wellgen';
    try {
      const manifest = require.resolve(`${fit.pkg}/package.json`);
      const binary = path.join(path.dirname(manifest), 'bin', exe);
      if (fs.existsSync(binary)) return binary;
    } catch {
      // Not installed: the message below says why that happens.
    }
  }
  const error = new Error(missingMessage(host, fit));
  error.code = 'WELLGEN_NO_BINARY';
  throw error;
}

module.exports = { PLATFORMS, FALLBACK, detectLibc, platformFor, missingMessage, binaryPath };
