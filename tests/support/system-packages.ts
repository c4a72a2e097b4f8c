import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** A Debian package a test needs, and the file that shows it is installed. */
export interface SystemPackage {
  /** Debian package name, e.g. `chromium`. */
  debianPackage: string;
  /** A file the package installs; its presence means the package is usable. */
  probe: string;
  /** What the package is for, for the error message. */
  purpose: string;
}

export const CHROMIUM: SystemPackage = {
  debianPackage: 'chromium',
  probe: '/usr/bin/chromium',
  purpose: 'browser tests (driven by playwright-core; no browser is ever downloaded)',
};

export const POSTGRESQL: SystemPackage = {
  debianPackage: 'postgresql',
  probe: '/usr/lib/postgresql',
  purpose: 'the storage contract suite against a real PostgreSQL server',
};

let aptUpdated = false;

function isDebian(): boolean {
  return existsSync('/etc/debian_version') || /ID(_LIKE)?=.*debian/.test(safeRead('/etc/os-release'));
}

function safeRead(path: string): string {
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
export function ensureSystemPackage(pkg: SystemPackage): void {
  if (existsSync(pkg.probe)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !isDebian()) {
    throw new Error(
      `Missing system package "${pkg.debianPackage}" (needed for ${pkg.purpose}).\n` +
        `Install it with:  sudo apt-get update && sudo apt-get install -y ${pkg.debianPackage}\n` +
        '(npm test installs it by itself when run as root on Debian.)',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  process.stderr.write(`[tests] installing Debian package ${pkg.debianPackage} for ${pkg.purpose}…\n`);
  if (!aptUpdated) {
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    aptUpdated = true;
  }
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg.debianPackage], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (!existsSync(pkg.probe)) {
    throw new Error(`Installed ${pkg.debianPackage}, but ${pkg.probe} is still missing.`);
  }
}
