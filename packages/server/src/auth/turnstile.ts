import { z } from 'zod';
import type { AllauthError } from './allauth-responses.js';

const siteverifyAnswer = z.object({ success: z.boolean(), 'error-codes': z.array(z.string()).optional() });

/**
 * Verifies a Cloudflare Turnstile token with the configured siteverify URL. Returns the sign-up error
 * to report, or undefined when the token is good.
 */
export async function verifyTurnstile(
  config: { secret: string; verifyUrl: string },
  token: string | undefined,
  remoteIp: string,
): Promise<AllauthError | undefined> {
  const param = 'turnstile_token';
  if (!token) return { message: 'Please complete the captcha.', code: 'invalid_captcha', param };
  try {
    const response = await fetch(config.verifyUrl, {
      method: 'POST',
      body: new URLSearchParams({ secret: config.secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = siteverifyAnswer.parse(await response.json());
    if (answer.success) return undefined;
    if (answer['error-codes']?.includes('timeout-or-duplicate')) {
      return { message: 'The captcha expired. Please try again.', code: 'captcha_timeout', param };
    }
    return {
      message: 'The captcha was not solved correctly. Please try again.',
      code: 'invalid_captcha',
      param,
    };
  } catch {
    return { message: 'The captcha could not be checked. Please try again.', code: 'invalid_captcha', param };
  }
}
