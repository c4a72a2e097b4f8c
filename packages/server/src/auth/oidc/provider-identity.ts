import { z } from 'zod';

/** Who the provider says signed in: what we keep of the ID token (and UserInfo) claims. */
export interface ProviderIdentity {
  /** The provider's stable user id (`sub`). */
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarUrl: string | null;
}

// Control characters would corrupt storage or display (the profile refuses them too).
const CONTROL = /[\p{Cc}\p{Cs}]/gu;
const NAME_MAX = 150;

const claimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().optional(),
  // Google sends a boolean; some providers send the string.
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

const emailSchema = z.email().max(254);

/** Whether the claims already carry the address (Google puts it in the ID token; others only in UserInfo). */
export function hasEmailClaim(claims: Record<string, unknown>): boolean {
  return typeof claims.email === 'string' && claims.email.length > 0;
}

function cleanName(value: string | undefined): string {
  return (value ?? '').replace(CONTROL, '').trim().slice(0, NAME_MAX).trim();
}

function avatarOf(picture: string | undefined): string | null {
  if (!picture || picture.length > 2048 || !URL.canParse(picture)) return null;
  return new URL(picture).protocol === 'https:' ? picture : null;
}

/**
 * The identity in validated claims, or why it cannot sign anyone in: an address the provider has not
 * verified is never trusted, since it would let anyone claim an account by typing its address.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
): { ok: true; identity: ProviderIdentity } | { ok: false; reason: 'invalid_claims' | 'email_unverified' } {
  const parsed = claimsSchema.safeParse(claims);
  if (!parsed.success) return { ok: false, reason: 'invalid_claims' };
  const c = parsed.data;
  const email = c.email?.trim();
  const verified = c.email_verified === true || c.email_verified === 'true';
  if (!email || !verified || !emailSchema.safeParse(email).success)
    return { ok: false, reason: 'email_unverified' };
  let firstName = cleanName(c.given_name);
  const lastName = cleanName(c.family_name);
  if (!firstName && !lastName) firstName = cleanName(c.name);
  return {
    ok: true,
    identity: { subject: c.sub, email, firstName, lastName, avatarUrl: avatarOf(c.picture) },
  };
}
