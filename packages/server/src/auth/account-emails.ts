import { escapeHtml } from '../mail/escape-html.js';
import type { MailMessage } from '../mail/mailer.js';

/** A message with a call to action: the same words in the text and the HTML part. */
export function withLink(
  to: string,
  subject: string,
  lines: string[],
  link: { label: string; url: string },
): MailMessage {
  const text = [...lines, '', `${link.label}: ${link.url}`, '', '— Planwright'].join('\n');
  const html =
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` +
    `<p style="color:#666">If the button does not work, paste this address into your browser:<br>${escapeHtml(link.url)}</p>` +
    '<p>— Planwright</p>';
  return { to, subject, text, html };
}

export function verificationEmail(to: string, url: string): MailMessage {
  return withLink(
    to,
    'Confirm your e-mail address for Planwright',
    [
      'Welcome to Planwright!',
      'Please confirm that this is your e-mail address. The link works once and expires in 3 days.',
      'If you did not sign up, you can ignore this message.',
    ],
    { label: 'Confirm my e-mail address', url },
  );
}

export function passwordResetEmail(to: string, url: string): MailMessage {
  return withLink(
    to,
    'Reset your Planwright password',
    [
      'Someone (hopefully you) asked to reset the password of your Planwright account.',
      'The link works once and expires in 24 hours. If you did not ask for it, ignore this message: your password stays as it is.',
    ],
    { label: 'Choose a new password', url },
  );
}

/** Sent instead of a verification when someone signs up with an address that has an account. */
export function accountExistsEmail(to: string, signInUrl: string, resetUrl: string): MailMessage {
  const message = withLink(
    to,
    'You already have a Planwright account',
    [
      'Someone (hopefully you) tried to sign up for Planwright with this e-mail address, but an account already exists for it.',
      `If it was you, sign in instead. Forgot your password? Reset it here: ${resetUrl}`,
      'If it was not you, you can ignore this message.',
    ],
    { label: 'Sign in', url: signInUrl },
  );
  return message;
}

/** Sent to the owner when the account's password is changed (or set for the first time) while signed in. */
export function passwordChangedEmail(
  to: string,
  firstPassword: boolean,
  securityUrl: string,
  resetUrl: string,
): MailMessage {
  return withLink(
    to,
    firstPassword ? 'A password was set for your Planwright account' : 'Your Planwright password was changed',
    [
      firstPassword
        ? 'A password was just set for your Planwright account: you can now also sign in with it and the command line.'
        : 'The password of your Planwright account was just changed, and every other device was signed out.',
      `If this was not you, reset your password now (${resetUrl}) and look at your sessions and tokens.`,
    ],
    { label: 'Review your account security', url: securityUrl },
  );
}
