import type { ListPage, ListQuery } from '@planwright/sdk';
import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SIGNED_IN_TEXTS } from '../account/account-texts';
import type { BreadcrumbItem } from '../layout/breadcrumb-store';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { LoadError } from './load-error';
import { LoadingStatus } from './loading-status';
import { Pagination, pageCount } from './pagination';
import { StatusBadge } from './status-badge';

/** The words of a list page (`Documents`, `Blueprints`); the spec quotes some, the pages choose the rest. */
export interface ResourceListTexts {
  /** The page's heading, tab title and the breadcrumb's last item. */
  title: string;
  intro: string;
  /** The two lists' headings (`Recent Documents`, `All Documents`). */
  recent: string;
  all: string;
  loading: string;
  /** A failed read: its title and detail (`Failed to load documents`, `An error occurred fetching documents.`). */
  loadFailed: string;
  fetchFailed: string;
  /** The empty state's heading and words. */
  emptyTitle: string;
  empty: string;
}

/** What the lists need of an item: where its page is, and its status for the badge. */
export interface ListedResource {
  uuid: string;
  status: string | null | undefined;
}

/** One page of a list, as a query: the options the documents and blueprints queries build. */
type ListQueryOptions<T, K extends QueryKey> = UseQueryOptions<ListPage<T>, Error, ListPage<T>, K>;

export interface ResourceListPageProps<T extends ListedResource, RK extends QueryKey, LK extends QueryKey> {
  texts: ResourceListTexts;
  /** The header's button (New Document, New Blueprint). */
  action: ReactNode;
  /** Shown between the header and the lists (a failed creation). */
  notice?: ReactNode;
  /** The recent items (the 5 changed most recently). */
  recentQuery: ListQueryOptions<T, RK>;
  /** A page of every item, for the given page, size and order. */
  listQuery: (query: ListQuery) => ListQueryOptions<T, LK>;
  pageSize: number;
  pathOf: (uuid: string) => string;
  titleOf: (item: T) => string;
  /** What a recent entry shows under its title and status (progress for a document, version for a blueprint). */
  recentDetails: (item: T, title: string) => ReactNode;
  /** After the lists (a dialog the action opens). */
  children?: ReactNode;
}

/**
 * A list page of the signed-in area (spec 000 §2; documents SPEC.md DL1–DL4, blueprints BL1–BL3): the
 * breadcrumbs Dashboard › title, the heading with its intro and action, then, once read, the recent items
 * as cards beside every item page by page. The first read failing shows the failure with Try again, and no
 * items at all the empty state.
 */
export function ResourceListPage<T extends ListedResource, RK extends QueryKey, LK extends QueryKey>({
  texts,
  action,
  notice,
  recentQuery,
  listQuery,
  pageSize,
  pathOf,
  titleOf,
  recentDetails,
  children,
}: ResourceListPageProps<T, RK, LK>) {
  const titleId = useId();
  const crumbs = useMemo<readonly BreadcrumbItem[]>(
    () => [{ label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' }, { label: texts.title }],
    [texts.title],
  );
  useBreadcrumbs(crumbs);
  const recent = useQuery(recentQuery);
  const { list: all, page, setPage } = usePagedList(listQuery, pageSize);

  let body: ReactNode;
  if (recent.isError && !recent.data) {
    body = (
      <LoadError
        title={texts.loadFailed}
        detail={texts.fetchFailed}
        onRetry={() => {
          void recent.refetch();
          void all.refetch();
        }}
      />
    );
  } else if (!recent.data) {
    body = <LoadingStatus>{texts.loading}</LoadingStatus>;
  } else if (recent.data.total === 0) {
    body = (
      <div className="card border border-dashed border-base-300 bg-base-100">
        <div className="card-body items-start">
          <h2 className="card-title">{texts.emptyTitle}</h2>
          <p className="opacity-80">{texts.empty}</p>
        </div>
      </div>
    );
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-5">
        <RecentList
          heading={texts.recent}
          items={recent.data.items}
          pathOf={pathOf}
          titleOf={titleOf}
          details={recentDetails}
        />
        <ResourceListCard
          texts={texts}
          list={all}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          pathOf={pathOf}
          titleOf={titleOf}
        />
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby={titleId}>
      <title>{`${texts.title} · Planwright`}</title>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id={titleId} className="text-3xl font-bold">
            {texts.title}
          </h1>
          <p className="mt-2 opacity-80">{texts.intro}</p>
        </div>
        {action}
      </header>
      {notice}
      {body}
      {children}
    </section>
  );
}

/**
 * Every item, a page at a time, most recently changed first. The page being left stays on screen until
 * the next one arrives; a page past the end (its last items were deleted) moves to the last page there is.
 */
function usePagedList<T, K extends QueryKey>(
  listQuery: (query: ListQuery) => ListQueryOptions<T, K>,
  pageSize: number,
) {
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...listQuery({ page, pageSize, ordering: '-updated_at' }),
    placeholderData: keepPreviousData,
  });
  if (list.data && !list.isPlaceholderData && list.data.items.length === 0 && page > 1) {
    setPage(Math.min(page - 1, pageCount(list.data.total, pageSize)));
  }
  return { list, page, setPage };
}

/** The recent items as cards: the title as a link, the status badge, then what the kind adds. */
function RecentList<T extends ListedResource>({
  heading,
  items,
  pathOf,
  titleOf,
  details,
}: {
  heading: string;
  items: readonly T[];
  pathOf: (uuid: string) => string;
  titleOf: (item: T) => string;
  details: (item: T, title: string) => ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="lg:col-span-3">
      <h2 id={headingId} className="mb-3 text-xl font-semibold">
        {heading}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        {items.map((item) => {
          const title = titleOf(item);
          return (
            <li key={item.uuid} className="card border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body gap-3 p-4">
                <div className="flex items-start justify-between gap-2">
                  <Link
                    to={pathOf(item.uuid)}
                    dir="auto"
                    className="link-hover link min-w-0 font-semibold [overflow-wrap:anywhere]"
                  >
                    {title}
                  </Link>
                  <StatusBadge status={item.status} />
                </div>
                {details(item, title)}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The All list's card: each item's title as a link with its status, Previous / Next; its own failure and loading. */
function ResourceListCard<T extends ListedResource>({
  texts,
  list,
  page,
  pageSize,
  onPage,
  pathOf,
  titleOf,
}: {
  texts: ResourceListTexts;
  list: UseQueryResult<ListPage<T>>;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  pathOf: (uuid: string) => string;
  titleOf: (item: T) => string;
}) {
  const headingId = useId();
  let body: ReactNode;
  if (list.data) {
    body = (
      <>
        <ul className="flex flex-col divide-y divide-base-300">
          {list.data.items.map((item) => (
            <li key={item.uuid} className="flex items-center gap-3 py-2">
              <Link
                to={pathOf(item.uuid)}
                dir="auto"
                className="link-hover link min-w-0 flex-1 [overflow-wrap:anywhere]"
              >
                {titleOf(item)}
              </Link>
              <StatusBadge status={item.status} />
            </li>
          ))}
        </ul>
        <Pagination
          what={texts.all}
          page={page}
          total={list.data.total}
          pageSize={pageSize}
          onPage={onPage}
        />
      </>
    );
  } else if (list.isError) {
    body = (
      <LoadError title={texts.loadFailed} detail={texts.fetchFailed} onRetry={() => void list.refetch()} />
    );
  } else body = <LoadingStatus>{texts.loading}</LoadingStatus>;

  return (
    <section aria-labelledby={headingId} className="lg:col-span-2">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-3">
          <h2 id={headingId} className="card-title">
            {texts.all}
          </h2>
          {body}
        </div>
      </div>
    </section>
  );
}
