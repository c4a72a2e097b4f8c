import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import {
  accountExistsEmail,
  emailChangedEmail,
  emailChangeVerificationEmail,
  emailInUseEmail,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
} from './account-emails.js';
import { hashSecret, newSecret } from './secrets.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Spec 000 §9: reset links expire after 24 hours; verification links after 3 days (allauth's default), those
 * confirming a change of the account's address (`change_email`) too.
 */
export const KEY_LIFETIME_MS = {
  verify_email: 3 * DAY_MS,
  change_email: 3 * DAY_MS,
  password_reset: DAY_MS,
} as const;

/**
 * The account e-mails with their single-use keys. A failure to send is logged, not thrown: the
 * answer must not tell whether an address has an account, and the user can ask for a new link.
 */
export class AccountMailer {
  constructor(
    private readonly deps: {
      config: ServerConfig;
      storage: Storage;
      mailer: Mailer;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  async sendVerification(user: UserRecord, email: string): Promise<void> {
    const key = await this.newKey(user, 'verify_email', email);
    await this.send(verificationEmail(email, `${this.deps.config.publicUrl}/account/verify-email/${key}`));
  }

  /**
   * A link to `email`, a new address the account asked for: opening it makes `email` the account's address,
   * verified. Only the newest such link works: those sent before for another change stop working.
   */
  async sendEmailChangeVerification(user: UserRecord, email: string): Promise<void> {
    await this.deps.storage.accountKeys.deleteForUser(user.id, 'change_email');
    const key = await this.newKey(user, 'change_email', email);
    await this.send(
      emailChangeVerificationEmail(email, `${this.deps.config.publicUrl}/account/verify-email/${key}`),
    );
  }

  /** Tells the owner of `email` that another account asked for their address (which it does not get). */
  async sendEmailInUse(email: string): Promise<void> {
    const base = this.deps.config.publicUrl;
    await this.send(emailInUseEmail(email, `${base}/account/signin`, `${base}/account/password/reset`));
  }

  /** Tells the old address that the account's address is now `newEmail`. */
  async sendEmailChanged(oldEmail: string, newEmail: string): Promise<void> {
    const base = this.deps.config.publicUrl;
    await this.send(
      emailChangedEmail(
        oldEmail,
        newEmail,
        `${base}/dashboard/profile#security`,
        `${base}/account/password/reset`,
      ),
    );
  }

  async sendPasswordReset(user: UserRecord): Promise<void> {
    const key = await this.newKey(user, 'password_reset', user.email);
    await this.send(
      passwordResetEmail(user.email, `${this.deps.config.publicUrl}/account/password/reset/key/${key}`),
    );
  }

  async sendAccountExists(email: string): Promise<void> {
    const base = this.deps.config.publicUrl;
    await this.send(accountExistsEmail(email, `${base}/account/signin`, `${base}/account/password/reset`));
  }

  /** Tells the owner their password was changed (or set), with where to look if it was not them. */
  async sendPasswordChanged(user: UserRecord, firstPassword: boolean): Promise<void> {
    const base = this.deps.config.publicUrl;
    await this.send(
      passwordChangedEmail(
        user.email,
        firstPassword,
        `${base}/dashboard/profile#security`,
        `${base}/account/password/reset`,
      ),
    );
  }

  private async newKey(
    user: UserRecord,
    purpose: keyof typeof KEY_LIFETIME_MS,
    email: string,
  ): Promise<string> {
    const key = newSecret();
    const now = this.deps.now();
    await this.deps.storage.accountKeys.create({
      keyHash: hashSecret(key),
      purpose,
      userId: user.id,
      email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + KEY_LIFETIME_MS[purpose]),
    });
    return key;
  }

  private async send(message: MailMessage): Promise<void> {
    try {
      await this.deps.mailer.send(message);
    } catch (error) {
      this.deps.log.error({ err: error, subject: message.subject }, 'account e-mail could not be sent');
    }
  }
}
