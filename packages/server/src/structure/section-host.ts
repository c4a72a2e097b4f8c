import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyRequest } from 'fastify';
import type { SettingsOverrides } from './reconcile-sections.js';
import type { SectionRow } from './section-rows.js';
import type { ParentKind } from './section-view.js';

/** A document or blueprint as the section routes see it: its tree, rows and revision. */
export interface SectionParent {
  id: string;
  revision: number;
  /** The stored tree (normalised when it was written). */
  content: DocumentJson;
  sections: SectionRow[];
}

/** What a section call changes: the tree (after a structure command) and settings of named parts. */
export interface SectionEdit {
  content?: DocumentJson;
  settings?: SettingsOverrides;
}

/** The outcome of a section write. */
export interface SectionWrite<R> {
  /** The parent after the write (unchanged when the edit changed nothing). */
  parent: SectionParent;
  /** What the change answered (the new section's uuid…). */
  result: R;
  /** The parent's detail answer (`document` or `blueprint` in a create answer). */
  detail: unknown;
}

/**
 * The parent side of the section and subsection routes, one per kind: who may read and change it, and
 * the one write path its writes go through. The routes apply a model command to the tree and hand the
 * new tree here, so rows and tree can never disagree.
 */
export interface SectionHost {
  readonly kind: ParentKind;
  /** The parent for reading, or 404 when the caller may not see it. */
  read(request: FastifyRequest, id: string): Promise<SectionParent>;
  /**
   * Runs `change` on the current parent and writes its edit, in one transaction: 404 unless the caller
   * may change the parent, 412 when `If-Match` no longer names its revision. `change` may throw an
   * HttpError to refuse; nothing is written then.
   */
  write<R>(
    request: FastifyRequest,
    id: string,
    change: (parent: SectionParent) => { edit: SectionEdit; result: R },
  ): Promise<SectionWrite<R>>;
}
