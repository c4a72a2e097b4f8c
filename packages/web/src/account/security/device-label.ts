const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A session's device as people name it ("Firefox on macOS") from its user agent; the command line and other
 * programs by their own name; an empty one as "Unknown device".
 */
export function deviceLabel(userAgent: string): string {
  const agent = userAgent.trim();
  if (agent === '') return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  // Not a browser: the program's own first word (`planwright/0.1.0`, `node`, `curl/8.5`).
  const program = /^[A-Za-z][\w.-]*/.exec(agent)?.[0];
  return program ? (system ? `${program} on ${system}` : program) : agent.slice(0, 60);
}
