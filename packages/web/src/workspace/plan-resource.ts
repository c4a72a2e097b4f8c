import {
  BLUEPRINT_SAVE_DEBOUNCE_MS,
  type BlueprintDetail,
  type CallOptions,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  type DocumentDetail,
  type PlanwrightClient,
  type SectionsResource,
  type WriteOptions,
} from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';

/** What a workspace edits: a document (spec 001 "Document editor layout") or a blueprint ("Blueprint editor layout"). */
export type PlanKind = 'document' | 'blueprint';

/** A document or a blueprint as the server answers it: both have a title, a content tree, sections and a revision. */
export type PlanDetail = DocumentDetail | BlueprintDetail;

/**
 * The calls a workspace makes on the resource it edits, the same for documents and blueprints, so one workspace,
 * one autosave and one structure path serve both editors.
 */
export interface PlanResource {
  readonly kind: PlanKind;
  /** Spec 001 §9: 1000 ms for documents, 800 ms for blueprints. */
  readonly debounceMs: number;
  get(uuid: string, options?: CallOptions): Promise<PlanDetail>;
  update(
    uuid: string,
    changes: { title?: string; content?: DocumentJson },
    options?: WriteOptions,
  ): Promise<PlanDetail>;
  readonly sections: SectionsResource<PlanDetail>;
}

/** The workspace's calls for `kind` over the SDK's documents or blueprints resource. */
export function planResource(client: PlanwrightClient, kind: PlanKind): PlanResource {
  if (kind === 'document') {
    const { documents } = client;
    return {
      kind,
      debounceMs: DOCUMENT_SAVE_DEBOUNCE_MS,
      get: (uuid, options) => documents.get(uuid, options),
      update: (uuid, changes, options) => documents.update(uuid, changes, options),
      sections: documents.sections,
    };
  }
  const { blueprints } = client;
  return {
    kind,
    debounceMs: BLUEPRINT_SAVE_DEBOUNCE_MS,
    get: (uuid, options) => blueprints.get(uuid, options),
    update: (uuid, changes, options) => blueprints.update(uuid, changes, options),
    sections: blueprints.sections,
  };
}
