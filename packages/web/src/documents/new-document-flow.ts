import { type BlueprintSummary, DOCUMENT_TEXTS, preferredBlueprint } from '@planwright/sdk';

/** Where the modal's list of available blueprints stands (a TanStack query's state, reduced). */
export interface BlueprintChoices {
  /** The last list that loaded, kept when a later load fails; `undefined` until one has. */
  blueprints: readonly BlueprintSummary[] | undefined;
  /** The newest attempt failed. */
  failed: boolean;
}

/** What the modal shows and what Create sends. */
export interface NewDocumentSelection {
  /** The blueprints to choose from. */
  options: readonly BlueprintSummary[];
  /** The uuid Create sends, or `null` when there is nothing to send. */
  selected: string | null;
  /** `loading` while the first list is on its way; `empty` for an empty list; `failed` when a load failed. */
  notice: 'loading' | 'empty' | 'failed' | null;
  /** The notice's words (spec 000 §4, §8), `null` with none or while loading. */
  message: string | null;
  /** `Please select a blueprint` once the list is settled without a selection (spec 000 §5). */
  hint: string | null;
  /** Create is enabled: something is selected and no creation is running (ND5). */
  canCreate: boolean;
}

/**
 * The new-document modal's selection (SPEC.md ND2–ND5): the pick the user made while it is still offered,
 * else the preferred blueprint when it is in the list, else the first. A failed load keeps the list that
 * loaded before (so the preferred one stays selected); with none, nothing can be sent.
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

  return {
    options,
    selected,
    notice,
    message,
    hint: selected === null && notice !== 'loading' ? DOCUMENT_TEXTS.selectBlueprint : null,
    canCreate: selected !== null && !creating,
  };
}
