import { type CurrentUser, Subscribable } from '@planwright/sdk';
import type { KeyValueStorage } from '../platform/browser-ports';
import type { Clock } from '../platform/clock';
import { BANNER_DISMISS_MS } from './account-timing';

/** Spec 000 §3: when the banner was last dismissed, in milliseconds since the epoch. */
export const BANNER_DISMISSED_KEY = 'emailVerificationBannerDismissed';

/** A stored timestamp, or `null` when there is none or it is not a whole number of milliseconds. */
export function parseDismissedAt(raw: string | null | undefined): number | null {
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * B1: dismissed less than 24 hours ago. A timestamp in the future (a clock that was wrong, a value typed
 * by hand) does not count, so a bad value can never hide the banner for good.
 */
export function dismissedRecently(dismissedAt: number | null, now: number): boolean {
  if (dismissedAt === null) return false;
  const elapsed = now - dismissedAt;
  return elapsed >= 0 && elapsed < BANNER_DISMISS_MS;
}

/** B2: shown when the check ran (not dismissed recently) and the current user's address is unverified. */
export function bannerVisible(input: {
  dismissedAt: number | null;
  now: number;
  user: Pick<CurrentUser, 'has_verified_email'> | undefined;
}): boolean {
  return !dismissedRecently(input.dismissedAt, input.now) && input.user?.has_verified_email === false;
}

/** Logged when the check fails (spec 000 §8 "Shared"); nothing is shown. */
export const VERIFICATION_CHECK_FAILURE_LOG = 'Failed to check email verification status';

/**
 * The banner's dismissal, kept in browser storage under `emailVerificationBannerDismissed`. Storage that
 * throws counts as empty, and a dismissal still holds in memory for this page.
 */
export class BannerDismissal extends Subscribable {
  private dismissedAt: number | null | undefined;

  constructor(private readonly ports: { storage(): KeyValueStorage | null; clock: Clock }) {
    super();
  }

  readonly getSnapshot = (): number | null => {
    if (this.dismissedAt === undefined) {
      let raw: string | null = null;
      try {
        raw = this.ports.storage()?.getItem(BANNER_DISMISSED_KEY) ?? null;
      } catch {
        raw = null;
      }
      this.dismissedAt = parseDismissedAt(raw);
    }
    return this.dismissedAt;
  };

  /** B3: hides the banner and stores the current time. */
  dismiss(): void {
    const now = this.ports.clock.now();
    try {
      this.ports.storage()?.setItem(BANNER_DISMISSED_KEY, String(now));
    } catch {
      // Storage full or blocked: dismissed for this page only.
    }
    this.dismissedAt = now;
    this.notify();
  }
}
