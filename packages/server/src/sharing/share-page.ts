import { documentToHtml } from '@planwright/sdk/formats';
import type { DocumentJson, SectionJson } from '@planwright/sdk/model';
import { escapeHtml } from '../mail/escape-html.js';
import type { ReaderAssets } from './share-reader-assets.js';

/**
 * The pages of a share link (docs/versions.md "Share links"), written on the server: the plan to read, the
 * password form, and the notices (gone, not found, too many tries). Every text is escaped; the only script is the
 * reader's own file, so the pages run under a CSP that allows nothing else.
 */

const DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A date as the reader page shows it: "29 Nov 2026" (UTC, so every reader sees the same day). */
export function shownDay(date: Date): string {
  return DAY.format(date);
}

function page(assets: ReaderAssets, title: string, body: string, options: { script?: boolean } = {}): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
    `<link rel="stylesheet" href="${assets.css.path}">`,
    options.script === true ? `<script src="${assets.js.path}" defer></script>` : '',
    '</head>',
    `<body><div class="pw-page">${body}</div></body>`,
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

function productFooter(publicUrl: string, tracking: string): string {
  return [
    '<footer class="pw-footer">',
    `<p>Shared read-only with <a href="${escapeHtml(publicUrl)}/">Planwright</a>, where founders write their business plans with AI.</p>`,
    tracking === '' ? '' : `<p class="pw-tracking">${escapeHtml(tracking)}</p>`,
    '</footer>',
  ].join('');
}

function sectionTitle(section: SectionJson): string {
  return (section.content[0].content ?? [])
    .map((node) => node.text)
    .join('')
    .trim();
}

/** What the reader page shows of a plan. */
export interface ReaderPageInput {
  title: string;
  /** Who wrote it, as the title page names them. */
  author: string | null;
  /** Which state of the plan this is: "Version “v3” of 12 Nov 2026", "Finalized sections as of …". */
  edition: string;
  content: DocumentJson;
  /** The link's own path (`/s/{token}`), for downloads and reading reports. */
  linkPath: string;
  /** The view this page counts as; null when the reader asked not to be tracked. */
  viewId: string | null;
  downloads: boolean;
  publicUrl: string;
}

/** The plan to read: title page, contents, sections, the product's footer. */
export function readerPage(assets: ReaderAssets, input: ReaderPageInput): string {
  const sections = input.content.content;
  const toc = sections
    .map((section) => {
      const uuid = escapeHtml(section.attrs.uuid);
      return `<li><a href="#section-${uuid}">${escapeHtml(sectionTitle(section) || 'Untitled section')}</a></li>`;
    })
    .join('');
  const articles = sections
    .map((section) => {
      const uuid = escapeHtml(section.attrs.uuid);
      const html = documentToHtml({ type: 'doc', content: [section] });
      return `<article class="pw-section" id="section-${uuid}" data-section="${uuid}">${html}</article>`;
    })
    .join('\n');
  const link = escapeHtml(input.linkPath);
  const downloads = input.downloads
    ? [
        '<nav class="pw-downloads" aria-label="Download">',
        `<a class="pw-button" href="${link}/download/pdf" download>Download PDF</a>`,
        `<a class="pw-button" href="${link}/download/docx" download>Download Word (.docx)</a>`,
        '</nav>',
      ].join('')
    : '';
  const body = [
    '<header class="pw-title-page">',
    '<p class="pw-kicker">Business plan</p>',
    `<h1>${escapeHtml(input.title || 'Untitled Document')}</h1>`,
    input.author ? `<p class="pw-meta">By ${escapeHtml(input.author)}</p>` : '',
    `<p class="pw-meta">${escapeHtml(input.edition)}</p>`,
    downloads,
    '</header>',
    sections.length > 0
      ? `<nav class="pw-toc" aria-labelledby="pw-contents"><h2 id="pw-contents">Contents</h2><ol>${toc}</ol></nav>`
      : '',
    input.viewId === null
      ? '<main>'
      : `<main data-view="${escapeHtml(input.viewId)}" data-read-url="${link}/read">`,
    articles ||
      '<p class="pw-empty">Nothing in this plan has been finalized yet. Ask its author to finalize the parts they want you to read.</p>',
    '</main>',
    productFooter(
      input.publicUrl,
      input.viewId === null
        ? 'Your browser asked not to be tracked: this visit is not counted.'
        : 'The author sees how often this plan is read and how long each section, counted with a cookie of this site only (no third party). Turn on Do Not Track in your browser to opt out.',
    ),
  ].join('\n');
  return page(assets, `${input.title || 'Untitled Document'} · Planwright`, body, {
    script: input.viewId !== null,
  });
}

/** The form asking for the link's password; `error` says why the last try failed. */
export function passwordPage(
  assets: ReaderAssets,
  input: { linkPath: string; error?: string; publicUrl: string },
): string {
  const body = [
    '<main class="pw-notice">',
    '<h1>This plan is protected by a password</h1>',
    '<p>Enter the password you were given with the link.</p>',
    `<form class="pw-form" method="post" action="${escapeHtml(input.linkPath)}">`,
    '<label for="pw-password">Password</label>',
    `<input id="pw-password" name="password" type="password" autocomplete="current-password" required maxlength="128" autofocus${
      input.error ? ' aria-invalid="true" aria-describedby="pw-password-error"' : ''
    }>`,
    input.error
      ? `<p class="pw-error" id="pw-password-error" role="alert">${escapeHtml(input.error)}</p>`
      : '',
    '<button class="pw-button" type="submit">Open the plan</button>',
    '</form>',
    '</main>',
    productFooter(input.publicUrl, ''),
  ].join('\n');
  return page(assets, 'Password needed · Planwright', body);
}

/** A page that only says something: the link is gone, unknown, or tried too often. */
export function noticePage(
  assets: ReaderAssets,
  input: { heading: string; message: string; publicUrl: string },
): string {
  const body = [
    '<main class="pw-notice">',
    `<h1>${escapeHtml(input.heading)}</h1>`,
    `<p>${escapeHtml(input.message)}</p>`,
    '</main>',
    productFooter(input.publicUrl, ''),
  ].join('\n');
  return page(assets, `${input.heading} · Planwright`, body);
}
