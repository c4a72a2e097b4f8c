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

/** Sent to a new address the profile asks to change to: opening the link makes it the account's address. */
export function emailChangeVerificationEmail(to: string, url: string): MailMessage {
  return withLink(
    to,
    'Confirm your new e-mail address for Planwright',
    [
      'Someone (hopefully you) asked to make this the e-mail address of their Planwright account.',
      'Confirm it and it becomes the address you sign in with. The link works once and expires in 3 days.',
      'If it was not you, you can ignore this message: nothing changes.',
    ],
    { label: 'Confirm my new e-mail address', url },
  );
}

/**
 * Sent instead of a verification when an account asks for an address another account already has: its
 * owner learns of it, the account that asked learns nothing.
 */
export function emailInUseEmail(to: string, signInUrl: string, resetUrl: string): MailMessage {
  return withLink(
    to,
    'Someone tried to add your e-mail address to a Planwright account',
    [
      'Someone tried to add this e-mail address to another Planwright account, but it already belongs to your account, so nothing was changed.',
      `If it was you, sign in to this account instead. Forgot your password? Reset it here: ${resetUrl}`,
      'If it was not you, you can ignore this message: your account stays as it is.',
    ],
    { label: 'Sign in', url: signInUrl },
  );
}

/** Sent to the old address once a new one is confirmed and has become the account's address. */
export function emailChangedEmail(
  to: string,
  newEmail: string,
  securityUrl: string,
  resetUrl: string,
): MailMessage {
  return withLink(
    to,
    'Your Planwright e-mail address was changed',
    [
      `Your Planwright e-mail address was changed to ${newEmail}. You now sign in with that address; this one no longer belongs to the account.`,
      `If this was not you, reset your password now (${resetUrl}), using the new address, and look at your sessions and tokens; or reply to this message.`,
    ],
    { label: 'Review your account security', url: securityUrl },
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
