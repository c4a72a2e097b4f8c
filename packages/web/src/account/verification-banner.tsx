import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { currentUserQuery } from './account-queries';
import { BANNER_TEXTS as TEXTS } from './account-texts';
import {
  BannerDismissal,
  bannerVisible,
  dismissedRecently,
  VERIFICATION_CHECK_FAILURE_LOG,
} from './banner-dismissal';
import { useAccountServices } from './use-account';
import { useResend } from './use-resend';

/**
 * The e-mail verification banner above the signed-in content (spec 000 §2, §4 "Verification banner"):
 * unless dismissed in the last 24 hours it checks `GET app/me/` and shows itself for an unverified
 * address, with Dismiss and Resend ('Sending...', then 'Email sent!' for 5 seconds). Failures are only
 * logged.
 */
export function VerificationBanner() {
  const { client, ports } = useAccountServices();
  const [dismissal] = useState(() => new BannerDismissal(ports));
  const dismissedAt = useSyncExternalStore(dismissal.subscribe, dismissal.getSnapshot, dismissal.getSnapshot);
  const now = ports.clock.now();
  const me = useQuery({ ...currentUserQuery(client), enabled: !dismissedRecently(dismissedAt, now) });
  const [resend, sendResend] = useResend();

  const { error } = me;
  useEffect(() => {
    if (error) ports.logError(VERIFICATION_CHECK_FAILURE_LOG, error);
  }, [error, ports]);

  if (!bannerVisible({ dismissedAt, now, user: me.data })) return null;
  const email = me.data?.email ?? '';

  return (
    <section aria-label="Email verification" className="border-b border-warning/40 bg-warning/15">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
        <div className="flex-1 text-sm">
          <p className="font-semibold">{TEXTS.message}</p>
          <p className="break-words opacity-80">{TEXTS.detail(email)}</p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {resend.status === 'sent' ? (
            <span role="status" className="badge badge-success">
              {TEXTS.sent}
            </span>
          ) : (
            <button
              type="button"
              className="btn btn-sm btn-warning"
              disabled={resend.status === 'sending'}
              onClick={() => sendResend({ type: 'resend', email })}
            >
              {resend.status === 'sending' ? TEXTS.sending : TEXTS.resend}
            </button>
          )}
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => dismissal.dismiss()}>
            {TEXTS.dismiss}
          </button>
        </div>
      </div>
    </section>
  );
}
