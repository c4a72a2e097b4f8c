import {
  apiFieldErrors,
  BLUEPRINT_STATUSES,
  BLUEPRINT_TEXTS,
  BLUEPRINT_VERSION_MIN,
  BLUEPRINT_VISIBILITIES,
  type BlueprintDetail,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { writeFailureMessage } from '../api/write-failure';
import { organizationsQuery } from '../organizations/organization-queries';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { Alert } from '../ui/alert';
import { LoadingStatus } from '../ui/loading-status';
import { SelectField } from '../ui/select-field';
import { TextField } from '../ui/text-field';
import {
  allowedOrgsApply,
  type BlueprintFormValues,
  blueprintChangesFrom,
  blueprintFormChanged,
  blueprintFormError,
  blueprintFormFrom,
  organizationOptions,
  rebaseBlueprintForm,
} from './blueprint-form';
import { BLUEPRINT_PAGE_TEXTS as TEXTS } from './blueprint-page-texts';
import { usePublishBlueprint, useUpdateBlueprint } from './blueprint-queries';

/**
 * The marketplace form (spec 000 §2, §4, §5; SPEC.md BF1–BF7): status, version, visibility and, for a
 * restricted blueprint, the allowed organisations. Only the owner can change it; others see it read-only.
 */
export function MarketplaceForm({ blueprint }: { blueprint: BlueprintDetail }) {
  const { clock } = useBrowserPorts();
  const update = useUpdateBlueprint(blueprint.uuid);
  const publish = usePublishBlueprint(blueprint.uuid);
  const editable = blueprint.is_owner;
  // BF8: the server's own reason for refusing a version stands by the field.
  const serverVersionMessage =
    apiFieldErrors(update.error).find((problem) => problem.param === 'version')?.message ?? null;
  const server = useMemo(() => blueprintFormFrom(blueprint), [blueprint]);
  const [form, setForm] = useState({ base: server, values: server });
  const [versionMessage, setVersionMessage] = useState<string | null>(null);
  const orgsId = useId();

  // BF6: a newer read of the blueprint moves the form along, unless the user has changes of their own.
  if (form.base !== server)
    setForm({ base: server, values: rebaseBlueprintForm(form.values, form.base, server) });

  const { values } = form;
  const changed = blueprintFormChanged(values, server);
  const set = (next: Partial<BlueprintFormValues>) => {
    setForm((current) => ({ ...current, values: { ...current.values, ...next } }));
    if (!update.isPending) update.reset();
    if (!publish.isPending) publish.reset();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editable || update.isPending) return;
    const problem = blueprintFormError(values);
    setVersionMessage(problem ?? null);
    if (problem !== undefined) return;
    update.mutate({
      changes: blueprintChangesFrom(values, new Date(clock.now())),
      revision: blueprint.revision,
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {!editable && <p className="text-sm opacity-80">{TEXTS.readOnly}</p>}
      <fieldset disabled={!editable || update.isPending} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            name="status"
            label={TEXTS.status}
            value={values.status}
            options={BLUEPRINT_STATUSES}
            optionLabel={(status) => TEXTS.statuses[status]}
            onChange={(status) => set({ status })}
          />
          <TextField
            name="version"
            label={TEXTS.version}
            type="number"
            inputMode="numeric"
            min={BLUEPRINT_VERSION_MIN}
            step={1}
            value={values.version}
            error={versionMessage ?? serverVersionMessage}
            onChange={(event) => {
              set({ version: event.target.value });
              setVersionMessage(null);
            }}
          />
        </div>
        <SelectField
          name="visibility"
          label={TEXTS.visibility}
          value={values.visibility}
          options={BLUEPRINT_VISIBILITIES}
          optionLabel={(visibility) => TEXTS.visibilities[visibility]}
          onChange={(visibility) => set({ visibility })}
        />
        {allowedOrgsApply(values) && (
          <AllowedOrganizations
            id={orgsId}
            chosen={values.allowedOrgs}
            enabled={editable}
            onChange={(allowedOrgs) => set({ allowedOrgs })}
          />
        )}
      </fieldset>

      {update.isError && serverVersionMessage === null && (
        <Alert kind="error">
          {writeFailureMessage(update.error, BLUEPRINT_TEXTS.saveChangesFailed, 'blueprint')}
        </Alert>
      )}
      {publish.isError && (
        <Alert kind="error">
          {writeFailureMessage(publish.error, BLUEPRINT_TEXTS.saveChangesFailed, 'blueprint')}
        </Alert>
      )}
      {update.isSuccess && !changed && <Alert kind="success">{TEXTS.saved}</Alert>}
      {publish.isSuccess && !changed && (
        <Alert kind="success">{TEXTS.publishedVersion(publish.data.version)}</Alert>
      )}

      {editable && (
        <div className="flex flex-wrap justify-end gap-2">
          {server.status === 'published' && !changed && (
            <button
              type="button"
              className="btn btn-outline mr-auto"
              disabled={publish.isPending || update.isPending}
              onClick={() => {
                update.reset();
                publish.mutate(blueprint.revision);
              }}
            >
              {publish.isPending ? TEXTS.publishing : TEXTS.publishNewVersion(blueprint.version + 1)}
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost"
            disabled={!changed || update.isPending}
            onClick={() => {
              setForm({ base: server, values: server });
              setVersionMessage(null);
              update.reset();
            }}
          >
            {TEXTS.reset}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!changed || update.isPending}>
            {update.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {update.isPending ? TEXTS.saving : TEXTS.save}
          </button>
        </div>
      )}
    </form>
  );
}

/** BF2: the allowed organisations, as checkboxes, read from `GET organizations/` when first shown. */
function AllowedOrganizations({
  id,
  chosen,
  enabled,
  onChange,
}: {
  id: string;
  chosen: readonly string[];
  enabled: boolean;
  onChange: (chosen: string[]) => void;
}) {
  const client = usePlanwrightClient();
  // A reader sees the allowed organisations they belong to (the server names only those): read for names too.
  const organizations = useQuery(organizationsQuery(client));
  const options = organizationOptions(organizations.data?.items ?? [], chosen).filter(
    (option) => enabled || chosen.includes(option.id),
  );
  const selected = new Set(chosen);

  let body: ReactNode;
  if (organizations.isPending) body = <LoadingStatus>{TEXTS.loadingOrganizations}</LoadingStatus>;
  else if (options.length === 0) {
    body = (
      <p className="text-sm opacity-80">
        {organizations.isError ? TEXTS.organizationsFailed : TEXTS.noOrganizations}
      </p>
    );
  } else {
    body = (
      <ul className="flex max-h-60 flex-col gap-2 overflow-y-auto">
        {options.map((option) => (
          <li key={option.id}>
            <label className="flex cursor-pointer items-center gap-3">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                name="allowed_orgs"
                value={option.id}
                checked={selected.has(option.id)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...chosen, option.id]
                      : chosen.filter((chosenId) => chosenId !== option.id),
                  )
                }
              />
              <span dir="auto" className="min-w-0 [overflow-wrap:anywhere]">
                {option.label}
              </span>
            </label>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <fieldset aria-labelledby={id} className="flex flex-col gap-2 rounded-box border border-base-300 p-3">
      <legend id={id} className="px-1 text-sm font-medium">
        {TEXTS.allowedOrgs}
      </legend>
      {body}
      {organizations.isError && options.length > 0 && (
        <p className="text-sm text-error">{TEXTS.organizationsFailed}</p>
      )}
    </fieldset>
  );
}
