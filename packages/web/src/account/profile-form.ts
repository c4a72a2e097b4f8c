import { ApiError, type CurrentUser, type ProfileUpdate, toErrorMessage } from '@planwright/sdk';

/** The profile form as typed (spec 000 §2 "Profile page"); `''` means "not set" for the two choices. */
export interface ProfileFormValues {
  first_name: string;
  last_name: string;
  email: string;
  language: string;
  timezone: string;
}

export type ProfileField = keyof ProfileFormValues;

export function profileFormFrom(user: CurrentUser): ProfileFormValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    language: user.language ?? '',
    timezone: user.timezone ?? '',
  };
}

/**
 * M1: what Save sends (spec 000 §7: first name, last name, email, language or null, time zone or null).
 * Names and the address lose the spaces around them, which are never meant and which the server refuses.
 */
export function profileUpdateFrom(values: ProfileFormValues): ProfileUpdate {
  return {
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    email: values.email.trim(),
    language: values.language === '' ? null : values.language,
    timezone: values.timezone === '' ? null : values.timezone,
  };
}

/** M2: whether the form differs from what was saved (Cancel and Save changes are only offered then). */
export function profileChanged(values: ProfileFormValues, saved: ProfileFormValues): boolean {
  return (Object.keys(saved) as ProfileField[]).some((field) => values[field] !== saved[field]);
}

function fieldMessages(data: unknown): string[] {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .map((error) => (error as { message?: unknown } | null)?.message)
    .filter((message): message is string => typeof message === 'string' && message.trim() !== '');
}

/**
 * M3: the alert after a failed save (spec 000 §8 "Profile"): `Error saving profile: {message}`, where the
 * message is what the server said about the fields, else its detail, else the error's own message (so a
 * JSON body is never shown as it is).
 */
export function profileSaveErrorMessage(error: unknown): string {
  let message = toErrorMessage(error);
  if (ApiError.isInstance(error)) {
    const fields = [...new Set(fieldMessages(error.data))];
    if (fields.length > 0) message = fields.join('. ');
    else if (error.detail !== undefined && error.detail.trim() !== '') message = error.detail;
  }
  return `Error saving profile: ${message}`;
}

/** A choice in a select: the stored value and what the person reads. */
export interface ProfileOption {
  value: string;
  label: string;
}

const LANGUAGE_TAGS = ['en', 'de', 'es', 'fr', 'it', 'nl', 'pl', 'pt', 'pt-BR', 'sv'] as const;

function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    return name ? `${name.charAt(0).toLocaleUpperCase(tag)}${name.slice(1)}` : tag;
  } catch {
    return tag;
  }
}

/**
 * The languages offered, each named in itself ("Deutsch"), plus the stored one when it is not in the list,
 * so opening and saving the form never changes a value the person did not touch.
 */
export function languageOptions(current: string): ProfileOption[] {
  const tags: string[] = [...LANGUAGE_TAGS];
  if (current !== '' && !tags.includes(current)) tags.push(current);
  return tags.map((tag) => ({ value: tag, label: languageName(tag) }));
}

/** Every IANA time zone the browser knows, plus UTC and the stored one (the same reasoning as above). */
export function timeZoneOptions(current: string): ProfileOption[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(['UTC', ...zones]);
  if (current !== '') all.add(current);
  return [...all].map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}
