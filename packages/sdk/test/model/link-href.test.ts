import { BLOCKED_LINK_SCHEMES, isAllowedLinkHref, STANDARD_LINK_SCHEMES } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import { isExportableLinkHref } from '../../src/model/link-href.js';
import { readCorpusFile } from '../support/corpus.js';

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

describe('isExportableLinkHref (M14)', () => {
  it.each([
    'https://example.com/a?b=c#d',
    'HTTP://example.com',
    'http://example.com/x.docx',
    'mailto:ada@example.com',
    'MailTo:ada@example.com',
    '#market-analysis',
    ' #anchor',
  ])('M14: an export links %j', (href) => {
    expect(isExportableLinkHref(href)).toBe(true);
  });

  it.each([
    ['\\\\host\\share\\x.docx', 'UNC path'],
    ['\\\\?\\C:\\x.docx', 'UNC long path'],
    ['//host/share/x.docx', 'protocol-relative'],
    ['file:///C:/x.docx', 'file'],
    ['FILE://host/share/x.docx', 'file, upper case'],
    ['javascript:alert(1)', 'script'],
    ['java\tscript:alert(1)', 'script with a tab'],
    ['&#106;avascript:alert(1)', 'script as a character reference'],
    ['tel:+441234567', 'tel: allowed in the editor, not in a file'],
    ['ftp://example.com/x', 'ftp'],
    ['ms-word:ofe|u|https://example.com/x.docx', 'Office URI scheme'],
    ['custom-app:open', 'custom scheme'],
    ['x.docx', 'relative path'],
    ['/etc/passwd', 'absolute path'],
    ['C:\\Users\\x.docx', 'drive path'],
    ['https:\\\\host\\share', 'backslashes after a scheme'],
    ['https://exa\u0000mple.com', 'control character'],
    ['#', 'an empty anchor'],
    ['', 'blank'],
    [42, 'not a string'],
  ] as [unknown, string][])('M14: an export writes %j as text (%s)', (href, _label) => {
    expect(isExportableLinkHref(href)).toBe(false);
  });

  it('M14: every string of the naughty list that is exported passes the editor check and has an exported form', () => {
    const naughty = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    for (const value of naughty) {
      if (!isExportableLinkHref(value)) continue;
      expect(isAllowedLinkHref(value)).toBe(true);
      expect(value.trim()).toMatch(/^(https?:|mailto:|#.)/i);
    }
  });
});
