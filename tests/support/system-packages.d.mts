/** A Debian package a test needs, and the file that shows it is installed. */
export interface SystemPackage {
  /** Debian package name, e.g. `chromium`. */
  debianPackage: string;
  /** Tells whether the package is installed and usable. */
  isInstalled: () => boolean;
  /** What the package is for, for the error message. */
  purpose: string;
}

/** Debian's Chromium, driven by playwright-core (no browser is ever downloaded). */
export declare const CHROMIUM: SystemPackage;
/** A PostgreSQL server, for the storage contract suite. */
export declare const POSTGRESQL: SystemPackage;
/** Debian's redis-server, for live plans across instances. */
export declare const REDIS: SystemPackage;
/** LibreOffice Writer without a GUI, to open exported .docx files. */
export declare const LIBREOFFICE: SystemPackage;
/** pdftotext and pdfinfo, to read exported PDF files. */
export declare const POPPLER: SystemPackage;
/** pandoc, for the conversion benchmarks. */
export declare const PANDOC: SystemPackage;

/** The newest installed PostgreSQL server's bin directory (Debian layout), if any. */
export declare function postgresBinDir(): string | undefined;

/**
 * Makes sure a system package is installed. Installs it with apt when it is missing and we are root
 * on Debian (one apt run at a time across processes); otherwise throws with the exact command to run.
 * Never skips: a test that needs the package must not pass silently without it.
 */
export declare function ensureSystemPackage(pkg: SystemPackage): void;
