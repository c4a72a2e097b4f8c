// Plain JavaScript with its own declaration file (system-packages.d.mts), so every package's tests can
// import it: declaration files may live outside a TypeScript project's rootDir.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = {
  debianPackage: 'chromium',
  isInstalled: () => existsSync('/usr/bin/chromium'),
  purpose: 'browser tests (driven by playwright-core; no browser is ever downloaded)',
};

export const POSTGRESQL = {
  debianPackage: 'postgresql',
  // The client package also creates /usr/lib/postgresql/N/bin; only the server ships initdb.
  isInstalled: () => postgresBinDir() !== undefined,
  purpose: 'the storage contract suite against a real PostgreSQL server',
};

export const REDIS = {
  debianPackage: 'redis-server',
  isInstalled: () => existsSync('/usr/bin/redis-server'),
  purpose: 'live plans shared between server instances through Redis (REDIS_URL)',
};

export const LIBREOFFICE = {
  debianPackage: 'libreoffice-writer-nogui',
  isInstalled: () => existsSync('/usr/bin/soffice'),
  purpose: 'opening exported .docx files in LibreOffice (soffice --headless --convert-to)',
};

export const POPPLER = {
  debianPackage: 'poppler-utils',
  isInstalled: () => existsSync('/usr/bin/pdftotext') && existsSync('/usr/bin/pdfinfo'),
  purpose: 'reading the text and page count of exported PDF files (pdftotext, pdfinfo)',
};

export const PANDOC = {
  debianPackage: 'pandoc',
  isInstalled: () => existsSync('/usr/bin/pandoc'),
  purpose: 'the .docx and Markdown conversion benchmarks against pandoc',
};

/** The newest installed PostgreSQL server's bin directory (Debian layout), if any. */
export function postgresBinDir() {
  if (!existsSync('/usr/lib/postgresql')) return undefined;
  return readdirSync('/usr/lib/postgresql')
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => `/usr/lib/postgresql/${version}/bin`)
    .find((bin) => existsSync(`${bin}/initdb`));
}

let aptUpdated = false;
const APT_LOCK = join(tmpdir(), 'planwright-tests-apt.lock');

function isDebian() {
  return existsSync('/etc/debian_version') || /ID(_LIKE)?=.*debian/.test(safeRead('/etc/os-release'));
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Makes sure a system package is installed. Installs it with apt when it is missing and we are root
 * on Debian; otherwise throws with the exact command to run. Never skips: a test that needs the
 * package must not pass silently without it.
 */
export function ensureSystemPackage(pkg) {
  if (pkg.isInstalled()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !isDebian()) {
    throw new Error(
      `Missing system package "${pkg.debianPackage}" (needed for ${pkg.purpose}).\n` +
        `Install it with:  sudo apt-get update && sudo apt-get install -y ${pkg.debianPackage}\n` +
        '(npm test installs it by itself when run as root on Debian.)',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Test files (and projects) run in parallel, and apt allows one run at a time: flock(1) queues them.
  const apt = (...args) =>
    execFileSync('flock', ['--wait', '1800', APT_LOCK, 'apt-get', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  process.stderr.write(`[tests] installing Debian package ${pkg.debianPackage} for ${pkg.purpose}…\n`);
  if (!aptUpdated) {
    apt('update');
    aptUpdated = true;
  }
  // Another process may have installed it while this one waited for the lock.
  if (!pkg.isInstalled()) apt('install', '-y', '--no-install-recommends', pkg.debianPackage);
  if (!pkg.isInstalled()) {
    throw new Error(`Installed ${pkg.debianPackage}, but it is still not usable.`);
  }
}
