/**
 * The exit codes of `planwright`. Scripts may branch on them, so codes are only ever added, never
 * renumbered. `--help` lists them too (see `program.ts`).
 */
export const ExitCode = {
  /** The command did what was asked. */
  ok: 0,
  /**
   * The command failed: the server refused (also a refused sign-in), a setting is missing, the config
   * or session file is broken.
   */
  failure: 1,
  /** The command line was wrong: unknown command or option, bad argument, bad server URL. */
  usage: 2,
  /** The server wants a signed-in user and there is none, or the session has expired. */
  notSignedIn: 3,
  /** The server could not be reached: connection refused, unknown host, no answer in time. */
  serverUnreachable: 4,
  /** Something unexpected happened: a bug in planwright (70 is EX_SOFTWARE in sysexits.h). */
  internal: 70,
  /** The user cancelled an interactive prompt (Ctrl+C or Esc): 128 + SIGINT, as shells report it. */
  cancelled: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
