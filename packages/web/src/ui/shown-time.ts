/** A moment as the screens show it: relative while recent, the date after that, and the exact time. */
export interface ShownTime {
  /**
   * `just now`, `5 minutes ago`, `yesterday`, `3 days ago`, `in 2 days`, or the date (`15 Jan 2026`) from a week
   * away on.
   */
  label: string;
  /** The full date and time, for a tooltip (`15 Jan 2026, 09:00`); `''` for an unreadable value. */
  exact: string;
  /** The ISO 8601 value for `<time dateTime>`; `undefined` for an unreadable value. */
  iso: string | undefined;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** From a week on, a relative time ("23 days ago") says less than the date. */
const RELATIVE_LIMIT = 7 * DAY;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const exactFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Further ahead than this, a time is meant to be in the future (an expiry), not a clock running ahead. */
const CLOCK_SKEW = 5 * MINUTE;

/**
 * How `value` (an ISO 8601 date-time from the server) reads at `now` (the injected clock's time, so tests
 * fix it). A time slightly in the future (the server's clock ahead of ours) is `just now`; one further ahead
 * (an invitation's expiry) reads forward, `in 3 hours`, `in 2 days`, or its date from a week on. An unreadable
 * value is shown as it came, never as "Invalid Date".
 */
export function shownTime(value: string, now: number): ShownTime {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return { label: value, exact: '', iso: undefined };
  const date = new Date(time);
  const exact = exactFormat.format(date);
  const iso = date.toISOString();
  const age = now - time;
  if (age < MINUTE && age > -CLOCK_SKEW) return { label: 'just now', exact, iso };
  const span = Math.abs(age);
  // Past times count back (`5 minutes ago`), future ones forward (`in 5 minutes`).
  const direction = age > 0 ? -1 : 1;
  if (span >= RELATIVE_LIMIT) return { label: dateFormat.format(date), exact, iso };
  if (span < HOUR)
    return { label: relative.format(direction * Math.floor(span / MINUTE), 'minute'), exact, iso };
  if (span < DAY) return { label: relative.format(direction * Math.floor(span / HOUR), 'hour'), exact, iso };
  return { label: relative.format(direction * Math.floor(span / DAY), 'day'), exact, iso };
}
