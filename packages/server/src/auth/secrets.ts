import { createHash, randomBytes } from 'node:crypto';

/** A new 256-bit random secret (session token, e-mailed key), URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The form a secret is stored in. A database leak then yields no usable token or key; a plain hash
 * suffices because the secret itself has 256 bits of entropy.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
