/**
 * Passwords: the sign-up and reset policy (Django's validators, as django-allauth applies them) and
 * storage as memory-hard scrypt hashes. Nothing here logs a password or puts one in an error message.
 *
 * ```ts
 * const problems = validatePassword(password, { email }); // [] when acceptable
 * const stored = await hashPassword(password);            // scrypt$ln=14$r=12$p=1$<salt>$<key>
 * const verdict = user ? await verifyPassword(password, user.passwordHash) : await dummyVerify(password);
 * if (verdict.ok && verdict.needsRehash) await save(await hashPassword(password));
 * ```
 *
 * @module
 */

export { loadCommonPasswords } from './common-passwords.js';
export {
  createPasswordHasher,
  DEFAULT_SCRYPT_PARAMS,
  dummyVerify,
  hashPassword,
  isPasswordHash,
  type PasswordHasher,
  type PasswordVerdict,
  type ScryptParams,
  verifyPassword,
} from './hash.js';
export { codePointLength, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './limits.js';
export {
  type PasswordPolicyOptions,
  type PasswordProblem,
  type PasswordProblemCode,
  type PasswordUser,
  validatePassword,
} from './policy.js';
