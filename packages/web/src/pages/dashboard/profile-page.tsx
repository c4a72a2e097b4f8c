import type { CurrentUser } from '@planwright/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { currentUserQuery, EMAIL_ADDRESSES_QUERY_KEY } from '../../account/account-queries';
import { SIGNED_IN_TEXTS, PROFILE_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import {
  languageOptions,
  type ProfileField,
  type ProfileFormValues,
  profileChanged,
  profileFormFrom,
  profileSaveErrorMessage,
  profileUpdateFrom,
  timeZoneOptions,
} from '../../account/profile-form';
import { SecuritySection } from '../../account/security/security-section';
import { useAccountServices } from '../../account/use-account';
import { UserAvatar } from '../../account/user-avatar';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { Alert } from '../../ui/alert';
import { SelectField } from '../../ui/select-field';
import { TextField } from '../../ui/text-field';

const BREADCRUMBS: readonly BreadcrumbItem[] = [
  { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
  { label: TEXTS.title },
];

/** `/dashboard/profile` (spec 000 §2 "Profile page", §7, §8 "Profile"). */
export function ProfilePage() {
  useBreadcrumbs(BREADCRUMBS);
  const { client } = useAccountServices();
  const me = useQuery(currentUserQuery(client));

  let body: ReactNode;
  // A new primary address (Profile › Security) starts the form again: saving the old one would ask to change it back.
  if (me.data) body = <ProfileForm key={`${me.data.id} ${me.data.email}`} user={me.data} />;
  else if (me.isError) {
    body = (
      <Alert kind="error">
        <span>{TEXTS.loadFailed}</span>
        <div>
          <button type="button" className="btn btn-sm" onClick={() => void me.refetch()}>
            {TEXTS.retry}
          </button>
        </div>
      </Alert>
    );
  } else {
    body = (
      <p role="status" className="flex items-center gap-3">
        <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
        {TEXTS.loading}
      </p>
    );
  }

  return (
    <section className="mx-auto max-w-3xl px-4 py-10" aria-labelledby="profile-title">
      <title>Profile · Planwright</title>
      <header className="mb-6">
        <h1 id="profile-title" className="text-3xl font-bold">
          {TEXTS.title}
        </h1>
        <p className="mt-2 opacity-80">{TEXTS.intro}</p>
      </header>
      {body}
      {me.data && <SecuritySection />}
    </section>
  );
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const { client } = useAccountServices();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(() => profileFormFrom(user));
  const [values, setValues] = useState(saved);
  const save = useMutation({
    mutationFn: (form: ProfileFormValues) => client.auth.updateMe(profileUpdateFrom(form)),
    onSuccess: (result) => {
      // The SDK has refreshed the stored name and e-mail; the shared query (and the banner) follow too.
      queryClient.setQueryData(currentUserQuery(client).queryKey, result.user);
      // The new address is listed (unverified) under Profile › Security until its link is opened.
      if (result.email_verification_sent)
        void queryClient.invalidateQueries({ queryKey: EMAIL_ADDRESSES_QUERY_KEY });
      const next = profileFormFrom(result.user);
      setSaved(next);
      setValues(next);
    },
  });

  const changed = profileChanged(values, saved);
  const set = (field: ProfileField) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (!save.isPending) save.reset();
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!save.isPending) save.mutate(values);
  };
  const name = `${saved.first_name} ${saved.last_name}`.trim();
  const languages = useMemo(() => languageOptions(saved.language), [saved.language]);
  const timeZones = useMemo(() => timeZoneOptions(saved.timezone), [saved.timezone]);

  return (
    <form noValidate onSubmit={onSubmit} className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-6">
        <div className="flex items-center gap-4">
          <UserAvatar avatarUrl={user.avatar_url} name={name} email={saved.email} size="large" />
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold">{name || saved.email}</p>
            {name && <p className="truncate text-sm opacity-80">{saved.email}</p>}
          </div>
        </div>

        {save.isError && <Alert kind="error">{profileSaveErrorMessage(save.error)}</Alert>}
        {save.isSuccess && (
          <Alert kind="success">
            <span>{TEXTS.saved}</span>
            {/* The account keeps its address until the link is opened: the link went to the one typed. */}
            {save.data.email_verification_sent && (
              <span>{TEXTS.verificationSent(save.variables.email.trim())}</span>
            )}
          </Alert>
        )}

        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="first_name"
            label={TEXTS.firstName}
            autoComplete="given-name"
            value={values.first_name}
            onChange={set('first_name')}
          />
          <TextField
            name="last_name"
            label={TEXTS.lastName}
            autoComplete="family-name"
            value={values.last_name}
            onChange={set('last_name')}
          />
        </div>
        <TextField
          name="email"
          label={TEXTS.email}
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <ProfileSelect
            name="language"
            label={TEXTS.language}
            value={values.language}
            options={languages}
            onChange={set('language')}
          />
          <ProfileSelect
            name="timezone"
            label={TEXTS.timezone}
            value={values.timezone}
            options={timeZones}
            onChange={set('timezone')}
          />
        </div>

        <div className="card-actions justify-end gap-2">
          <button
            type="button"
            className="btn btn-ghost"
            disabled={!changed || save.isPending}
            onClick={() => {
              setValues(saved);
              save.reset();
            }}
          >
            {TEXTS.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!changed || save.isPending}>
            {save.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {save.isPending ? TEXTS.saving : TEXTS.save}
          </button>
        </div>
      </div>
    </form>
  );
}

/** A profile select: "not set" first, then the offered values with their labels. */
function ProfileSelect(props: {
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (event: { target: { value: string } }) => void;
}) {
  const labels = useMemo(
    () => new Map(props.options.map((option) => [option.value, option.label])),
    [props.options],
  );
  const values = useMemo(() => ['', ...labels.keys()], [labels]);
  return (
    <SelectField
      name={props.name}
      label={props.label}
      value={props.value}
      options={values}
      optionLabel={(value) => (value === '' ? TEXTS.notSet : (labels.get(value) ?? value))}
      onChange={(value) => props.onChange({ target: { value } })}
    />
  );
}
