import { BLOCKED_LINK_SCHEMES, isAllowedLinkHref, STANDARD_LINK_SCHEMES } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';

describe('isAllowedLinkHref (M13)', () => {
  it.each(STANDARD_LINK_SCHEMES)('M13: allows the standard scheme %s, in any case', (scheme) => {
    expect(isAllowedLinkHref(`${scheme}:something`)).toBe(true);
    expect(isAllowedLinkHref(`${scheme.toUpperCase()}:something`)).toBe(true);
  });

  it.each([
    'https://example.com/a?b=c#d',
    'mailto:ada@example.com',
    'tel:+441234567',
    'xmpp:ada@example.com',
    'cid:part1@example.com',
  ])('M13: allows %s', (href) => {
    expect(isAllowedLinkHref(href)).toBe(true);
  });

  it.each([
    '/path/to/page',
    '#anchor',
    '?q=1',
    'page.html',
    './page',
    '../up',
    '//cdn.example.com/x',
    'folder/file:name',
  ])('M13: allows the relative reference %s', (href) => {
    expect(isAllowedLinkHref(href)).toBe(true);
  });

  it.each(['notion', 'slack', 'zoommtg', 'web3', 'x-custom', 'a1-b2-c3', 'obsidian'])(
    'M13: allows the custom scheme %s',
    (scheme) => {
      expect(isAllowedLinkHref(`${scheme}:open?id=1`)).toBe(true);
    },
  );

  it.each([
    ['uppercase letters', 'Notion:x'],
    ['a leading hyphen', '-x:y'],
    ['a trailing hyphen', 'x-:y'],
    ['a double hyphen', 'x--y:z'],
    ['a plus', 'git+ssh://host/repo'],
    ['a dot', 'web.app:x'],
    ['an underscore', 'my_app:x'],
    ['a percent escape', 'my%20app:x'],
    ['an empty scheme', ':x'],
    ['non-ASCII letters', 'ſcheme:x'],
  ])('M13: refuses a custom scheme with %s', (_label, href) => {
    expect(isAllowedLinkHref(href)).toBe(false);
  });

  it.each(BLOCKED_LINK_SCHEMES)('M13: refuses the blocked scheme %s', (scheme) => {
    expect(isAllowedLinkHref(`${scheme}:alert(1)`)).toBe(false);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    '   \t\n javascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u0001\u001fjavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'jav\u0000ascript:alert(1)',
    '\u00a0javascript:alert(1)',
    '\u2028javascript:alert(1)',
    '\u3000javascript:alert(1)',
    'javascript :alert(1)',
    'javascript\u200a:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    '&#0000106avascript:alert(1)',
    'javascript&colon;alert(1)',
    'java&Tab;script:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'DATA:text/html,<script>alert(1)</script>',
    ' data:image/svg+xml,<svg onload=alert(1)>',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    'livescript:x',
    'ms-msdt:/id PCWDiagnostic',
    'search-ms:query=x',
  ])('M13: refuses the hostile href %j', (href) => {
    expect(isAllowedLinkHref(href)).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['\u0000\u0001', 'controls only'],
    [null, 'null'],
    [42, 'a number'],
    [undefined, 'missing'],
  ] as [unknown, string][])('M13: refuses %j (%s)', (href, _label) => {
    expect(isAllowedLinkHref(href)).toBe(false);
  });
});
