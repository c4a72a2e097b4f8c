import {
  type BlueprintChanges,
  type BlueprintStatus,
  type BlueprintSummary,
  type BlueprintVisibility,
  blueprintPublication,
  type Organization,
  versionError,
} from '@planwright/sdk';

/** The marketplace form's fields as typed (the version stays text until it is checked). */
export interface BlueprintFormValues {
  status: BlueprintStatus;
  version: string;
  visibility: BlueprintVisibility;
  allowedOrgs: readonly string[];
}

/** BF1: the form starts from the blueprint as saved. */
export function blueprintFormFrom(
  blueprint: Pick<BlueprintSummary, 'status' | 'version' | 'visibility' | 'allowed_orgs'>,
): BlueprintFormValues {
  return {
    status: blueprint.status,
    version: String(blueprint.version),
    visibility: blueprint.visibility,
    allowedOrgs: [...blueprint.allowed_orgs].sort(),
  };
}

/** BF2: the allowed organisations are shown, and count, only for a `restricted` blueprint. */
export function allowedOrgsApply(values: Pick<BlueprintFormValues, 'visibility'>): boolean {
  return values.visibility === 'restricted';
}

function sameOrgs(a: readonly string[], b: readonly string[]): boolean {
  const left = [...new Set(a)].sort();
  const right = [...new Set(b)].sort();
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** BF5: whether the form differs from what is saved (organisations only count while they apply). */
export function blueprintFormChanged(values: BlueprintFormValues, saved: BlueprintFormValues): boolean {
  return (
    values.status !== saved.status ||
    values.version.trim() !== saved.version.trim() ||
    values.visibility !== saved.visibility ||
    (allowedOrgsApply(values) && !sameOrgs(values.allowedOrgs, saved.allowedOrgs))
  );
}

/** BF3: the version must be a whole number of at least 1 (spec 000 §5); `undefined` when it is. */
export function blueprintFormError(values: BlueprintFormValues): string | undefined {
  return versionError(values.version);
}

/**
 * BF4 (spec 000 §4 "Blueprint status"): what Save sends. Status, version and visibility as chosen;
 * `published_at` the time of the save when published, `null` for a draft; `allowed_orgs` the chosen
 * organisations when restricted, else `[]`.
 *
 * @throws Error when the form has an error; check {@link blueprintFormError} first.
 */
export function blueprintChangesFrom(values: BlueprintFormValues, now: Date): BlueprintChanges {
  const problem = blueprintFormError(values);
  if (problem !== undefined) throw new Error(problem);
  const { published_at, allowed_orgs } = blueprintPublication({
    status: values.status,
    visibility: values.visibility,
    allowedOrgs: values.allowedOrgs,
    now,
  });
  return {
    status: values.status,
    version: Number(values.version.trim()),
    visibility: values.visibility,
    published_at,
    allowed_orgs,
  };
}

/**
 * BF6: when the blueprint is read again (after a save, a rename or a 412), the form follows it unless the
 * user has changes of their own, which are kept.
 */
export function rebaseBlueprintForm(
  values: BlueprintFormValues,
  previous: BlueprintFormValues,
  next: BlueprintFormValues,
): BlueprintFormValues {
  return blueprintFormChanged(values, previous) ? values : next;
}

/** One choice of the allowed organisations. */
export interface OrganizationOption {
  id: string;
  label: string;
}

/** Ours: how an organisation the caller no longer sees is named, so a saved choice is never hidden. */
export const UNKNOWN_ORGANIZATION = (id: string) => `Organisation ${id}`;

/**
 * BF2: the caller's organisations to choose from, by name, plus any already chosen that the caller no
 * longer sees (named by id), so nothing chosen is ever dropped without the user seeing it.
 */
export function organizationOptions(
  organizations: readonly Organization[],
  chosen: readonly string[],
): OrganizationOption[] {
  const options = organizations.map((organization) => ({
    id: organization.id,
    label: organization.name.trim() || organization.slug || organization.id,
  }));
  const known = new Set(options.map((option) => option.id));
  for (const id of chosen) {
    if (!known.has(id)) {
      known.add(id);
      options.push({ id, label: UNKNOWN_ORGANIZATION(id) });
    }
  }
  return options;
}
