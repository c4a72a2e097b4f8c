import {
  type DocumentDetail,
  type DocumentListQuery,
  type DocumentSummary,
  type ListPage,
  type PlanwrightClient,
  RECENT_DOCUMENTS,
} from '@planwright/sdk';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ACTIVITY_KEY } from '../activity/activity-queries';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { isGone, isStaleWrite } from '../api/write-failure';

/**
 * Query keys: `['documents', 'list', query]` for each page read, `['documents', 'detail', uuid]` for one
 * document. A write sets the detail it answered and marks every list stale (SPEC.md W1).
 */
export const documentKeys = {
  all: ['documents'] as const,
  lists: ['documents', 'list'] as const,
  list: (query: DocumentListQuery) => ['documents', 'list', query] as const,
  detail: (uuid: string) => ['documents', 'detail', uuid] as const,
};

/** How many documents a page of the All Documents list holds. */
export const DOCUMENTS_PAGE_SIZE = 20;

/** One page of the caller's documents (`GET documents/`), or of those shared with them (`scope`). */
export function documentListQuery(client: PlanwrightClient, query: DocumentListQuery = {}) {
  return queryOptions({
    queryKey: documentKeys.list(query),
    queryFn: ({ signal }): Promise<ListPage<DocumentSummary>> => client.documents.list(query, { signal }),
  });
}

/** Recent Documents: the 5 changed most recently (spec 000 §2, §9). */
export function recentDocumentsQuery(client: PlanwrightClient) {
  return documentListQuery(client, { pageSize: RECENT_DOCUMENTS, ordering: '-updated_at' });
}

/** One document with its content (`GET documents/{uuid}/`). */
export function documentQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: documentKeys.detail(uuid),
    queryFn: ({ signal }): Promise<DocumentDetail> => client.documents.get(uuid, { signal }),
  });
}

/** After a write answered `document`: the detail is that answer; lists and feeds read again. */
function documentWritten(queryClient: QueryClient, document: DocumentDetail): void {
  queryClient.setQueryData(documentKeys.detail(document.uuid), document);
  void queryClient.invalidateQueries({ queryKey: documentKeys.lists });
  void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
}

/** After a 412: the document is read again, so the next attempt is made against what is current (W2). */
function staleDocument(queryClient: QueryClient, uuid: string, error: unknown): void {
  if (isStaleWrite(error)) void queryClient.invalidateQueries({ queryKey: documentKeys.detail(uuid) });
}

/**
 * `POST documents/` from a blueprint, or with `null` from the server's default (no blueprint sent); the
 * new document is cached for the page the user goes to.
 */
export function useCreateDocument() {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blueprint: string | null) =>
      client.documents.create(blueprint === null ? {} : { blueprint }),
    onSuccess: (document) => documentWritten(queryClient, document),
  });
}

/** What a rename sends: the new title, and the revision the user saw (sent as `If-Match`). */
export interface RenameVariables {
  title: string;
  revision: number | null;
}

/** Renames a document (`PATCH documents/{uuid}/` with `title`), guarded by the revision shown. */
export function useRenameDocument(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ title, revision }: RenameVariables) =>
      client.documents.update(uuid, { title }, revision === null ? {} : { ifMatch: revision }),
    onSuccess: (document) => documentWritten(queryClient, document),
    onError: (error) => staleDocument(queryClient, uuid, error),
  });
}

/**
 * Deletes a document (`DELETE documents/{uuid}/`), guarded by the revision shown. A 404 counts as done: the
 * document is gone either way (DE3). Lists and feeds read again; the detail leaves the cache when the
 * page using this hook goes (removing it while the page still shows it would only make the page read a
 * deleted document again).
 */
export function useDeleteDocument(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (revision: number | null) => {
      try {
        await client.documents.delete(uuid, revision === null ? {} : { ifMatch: revision });
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists });
      void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
    },
    onError: (error) => staleDocument(queryClient, uuid, error),
  });
  const deleted = mutation.isSuccess;
  useEffect(() => {
    if (!deleted) return;
    return () => queryClient.removeQueries({ queryKey: documentKeys.detail(uuid), exact: true });
  }, [deleted, queryClient, uuid]);
  return mutation;
}
