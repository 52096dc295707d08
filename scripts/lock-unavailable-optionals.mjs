// The npm registry this project installs from lacks most platform builds of some packages
// (e.g. @rollup/rollup-android-arm64): npm then leaves them out of package-lock.json, and
// `npm ci` refuses the lockfile ("Missing: … from lock file"). This script records each missing
// optional platform package in the lockfile with its os/cpu/libc, so that `npm ci` sees a
// complete lockfile and skips them on this platform, as it would with the packages available.
// Run it after `npm install` changes the lockfile: node scripts/lock-unavailable-optionals.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd'];
const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  gnueabihf: 'arm',
  musleabihf: 'arm',
};

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  const libc = parts.some((p) => p.startsWith('musl'))
    ? 'musl'
    : parts.some((p) => p === 'gnu' || p === 'gnueabihf')
      ? 'glibc'
      : undefined;
  if (!os || !cpu) throw new Error(`cannot tell the platform of ${name}`);
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[base] || lock.packages[hoisted]) continue;
    if (dep === 'fsevents') continue;
    let platform;
    try {
      platform = platformOf(dep);
    } catch {
      continue;
    }
    lock.packages[hoisted] = {
      version,
      cpu: [platform.cpu],
      dev: true,
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} optional platform package(s) that the registry does not serve`);
