import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { hashSecret } from './secrets.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after is accepted too: a phone's clock a little off still signs in. */
const WINDOW = 1;
/** How many recovery codes an account gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits no one misreads (no 0/o, 1/l/i). */
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: 'Planwright',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new TOTP secret (160 random bits, base32), to set an authenticator app up with. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URL an app scans (as a QR code) to add the account. */
export function totpUrl(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/**
 * The time step `code` is valid for at `now` (this step, the one before or the one after), or undefined when it
 * is not a code of `secret` then. Callers refuse a step already spent, so no code works twice.
 */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** A recovery code as typed, made comparable: no spaces or dashes, lower case. */
export function normalizedRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** The stored form of a recovery code. */
export function recoveryCodeHash(code: string): string {
  return hashSecret(normalizedRecoveryCode(code));
}

/** Ten new recovery codes, `xxxxx-xxxxx` (50 random bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
