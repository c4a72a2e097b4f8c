import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { SIGNED_IN_TEXTS } from '../account/account-texts';
import { isGone } from '../api/write-failure';
import type { BreadcrumbItem } from '../layout/breadcrumb-store';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { LoadError } from './load-error';
import { LoadingStatus } from './loading-status';
import { TitleCrumb } from './title-crumb';

/** The words of a detail page's states (documents SPEC.md DD1, blueprints BD1). */
export interface ResourceDetailTexts {
  /** The list the item belongs to (`Documents`): its breadcrumb, and the tab title until the item is read. */
  listTitle: string;
  loading: string;
  /** A 404: the heading (`Document not found.`) and the way back to the list. */
  notFound: string;
  backToList: string;
  /** Any other failure, with Try again. */
  loadFailed: string;
}

/**
 * A document's or blueprint's page around its view: the tab title and breadcrumbs (Dashboard › list ›
 * title, the title cut to one line), and until the item is read `loading`, a 404 as not found with a way
 * back to the list, any other failure with Try again.
 */
export function ResourceDetailPage<T>({
  query,
  titleOf,
  listPath,
  texts,
  children,
}: {
  query: UseQueryResult<T>;
  titleOf: (item: T) => string;
  listPath: string;
  texts: ResourceDetailTexts;
  /** The item's view, once read. */
  children: (item: T) => ReactNode;
}) {
  const title = query.data === undefined ? null : titleOf(query.data);
  const { listTitle } = texts;
  const crumbs = useMemo<readonly BreadcrumbItem[]>(() => {
    const list: BreadcrumbItem[] = [
      { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
      { label: listTitle, to: listPath },
    ];
    return title === null ? list : [...list, { key: 'title', content: <TitleCrumb title={title} /> }];
  }, [listTitle, listPath, title]);
  useBreadcrumbs(crumbs);

  let body: ReactNode;
  if (query.data !== undefined) body = children(query.data);
  else if (query.isError && isGone(query.error)) {
    body = (
      <div className="flex flex-col items-start gap-4">
        <h1 className="text-2xl font-bold">{texts.notFound}</h1>
        <Link to={listPath} className="btn">
          {texts.backToList}
        </Link>
      </div>
    );
  } else if (query.isError) {
    body = <LoadError title={texts.loadFailed} onRetry={() => void query.refetch()} />;
  } else body = <LoadingStatus>{texts.loading}</LoadingStatus>;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <title>{`${title ?? listTitle} · Planwright`}</title>
      {body}
    </section>
  );
}
