/** The pagination's words. */
export const PAGINATION_TEXTS = {
  label: (what: string) => `${what} pages`,
  previous: 'Previous',
  next: 'Next',
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
} as const;

const TEXTS = PAGINATION_TEXTS;

/** How many pages `total` items make at `pageSize` a page; at least 1, so "Page 1 of 1" reads right. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Previous / Next for a list read page by page; nothing when everything fits on one page. */
export function Pagination({
  what,
  page,
  total,
  pageSize,
  onPage,
}: {
  /** What is being paged (`All Documents`), for the landmark's name. */
  what: string;
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav aria-label={TEXTS.label(what)} className="flex items-center justify-between gap-2 pt-2">
      <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {TEXTS.previous}
      </button>
      <span className="text-sm opacity-80" aria-live="polite">
        {TEXTS.page(Math.min(page, pages), pages)}
      </span>
      <button type="button" className="btn btn-sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {TEXTS.next}
      </button>
    </nav>
  );
}
