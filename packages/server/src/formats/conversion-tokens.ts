import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { HttpError } from '../http/http-error.js';
import type { AppSettingRepository } from '../storage/app-setting-repository.js';

/** How long a conversion token lasts (spec 001 §7: "short-lived"; the SDK renews it 10 s before). */
export const CONVERSION_TOKEN_TTL_MS = 5 * 60_000;

const AUDIENCE = 'planwright:convert';
const SCOPE = 'convert';

/** A token the conversion endpoint accepts. */
export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/**
 * Conversion tokens (`POST apps/tiptap/convert/jwt/`): HS256 JWTs for one user and the `convert` scope
 * only, so a leaked one can convert a tree for a few minutes but read or write nothing. The signing key
 * is made on first use and kept in the database, so every instance accepts every instance's tokens.
 */
export class ConversionTokens {
  #key: Promise<Uint8Array> | undefined;

  constructor(
    private readonly deps: { appSettings: AppSettingRepository; now: () => Date; ttlMs?: number },
  ) {}

  #signingKey(): Promise<Uint8Array> {
    this.#key ??= this.deps.appSettings
      .getOrCreate('conversion_token_key', () => randomBytes(32).toString('base64url'), this.deps.now())
      .then((value) => new TextEncoder().encode(value));
    // A failed read is not remembered: the next call tries again.
    this.#key.catch(() => {
      this.#key = undefined;
    });
    return this.#key;
  }

  /** A new token for the user. */
  async issue(userId: string): Promise<IssuedToken> {
    const issuedAt = this.deps.now();
    const expiresAt = new Date(issuedAt.getTime() + (this.deps.ttlMs ?? CONVERSION_TOKEN_TTL_MS));
    const token = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(await this.#signingKey());
    return { token, expiresAt };
  }

  /**
   * The user a bearer token was issued to.
   * @throws HttpError 401 `token_expired` or `token_invalid` (missing, malformed, forged, wrong scope).
   */
  async verify(authorization: string | undefined): Promise<string> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token)
      throw new HttpError(401, 'token_invalid', 'A conversion token is required (Authorization: Bearer).');
    try {
      const { payload } = await jwtVerify(token, await this.#signingKey(), {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        currentDate: this.deps.now(),
      });
      if (payload.scope !== SCOPE || typeof payload.sub !== 'string') throw new Error('wrong scope');
      return payload.sub;
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        throw new HttpError(401, 'token_expired', 'The conversion token has expired.');
      }
      throw new HttpError(401, 'token_invalid', 'The conversion token is not valid.');
    }
  }
}
