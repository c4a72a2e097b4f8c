import { type BlueprintSummary, DOCUMENT_TEXTS, preferredBlueprint } from '@planwright/sdk';

/** Where the modal's list of available blueprints stands (a TanStack query's state, reduced). */
export interface BlueprintChoices {
  /** The last list that loaded, kept when a later load fails; `undefined` until one has. */
  blueprints: readonly BlueprintSummary[] | undefined;
  /** The newest attempt failed. */
  failed: boolean;
}

/**
 * What Create makes the document from: a listed blueprint, or the server's default template (the seeded
 * default blueprint, chosen by the server when no blueprint is sent).
 */
export type NewDocumentSource = { kind: 'blueprint'; uuid: string } | { kind: 'default-template' };

/** What the modal shows and what Create sends. */
export interface NewDocumentSelection {
  /** The blueprints to choose from. */
  options: readonly BlueprintSummary[];
  /** The uuid of the blueprint shown as selected; `null` when none is (loading, or the default template). */
  selected: string | null;
  /** What Create sends (ND4); `null` only while the first list loads. */
  source: NewDocumentSource | null;
  /** `loading` while the first list is on its way; `empty` for an empty list; `failed` when a load failed. */
  notice: 'loading' | 'empty' | 'failed' | null;
  /** The notice's words (spec 000 §4, §8), `null` with none or while loading. */
  message: string | null;
  /** Create is enabled: there is something to create from and no creation is running (ND5). */
  canCreate: boolean;
}

/**
 * The new-document modal's selection (SPEC.md ND2–ND5): the pick the user made while it is still offered,
 * else the preferred blueprint when it is in the list, else the first. A failed load keeps the list that
 * loaded before (so the preferred one stays selected); with no list to choose from (a failed first load, or
 * an empty list) Create uses the default template, and the server picks the blueprint.
 */
export function newDocumentSelection(
  choices: BlueprintChoices,
  picked: string | null,
  creating = false,
): NewDocumentSelection {
  const options = choices.blueprints ?? [];
  const selected =
    (picked !== null && options.some((blueprint) => blueprint.uuid === picked) ? picked : null) ??
    preferredBlueprint(options)?.uuid ??
    null;

  let notice: NewDocumentSelection['notice'] = null;
  let message: string | null = null;
  if (choices.failed) {
    notice = 'failed';
    message = DOCUMENT_TEXTS.fetchBlueprintsFailed;
  } else if (choices.blueprints === undefined) {
    notice = 'loading';
  } else if (options.length === 0) {
    notice = 'empty';
    message = DOCUMENT_TEXTS.noBlueprints;
  }

  let source: NewDocumentSource | null = null;
  if (selected !== null) source = { kind: 'blueprint', uuid: selected };
  else if (notice !== 'loading') source = { kind: 'default-template' };

  return { options, selected, source, notice, message, canCreate: source !== null && !creating };
}
