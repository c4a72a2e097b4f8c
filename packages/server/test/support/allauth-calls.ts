import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.js';

/** A signed-in allauth session: an app token (sent as X-Session-Token), or a browser one (its cookie). */
export interface Signed {
  client: 'app' | 'browser';
  token: string;
}

/** The CSRF token the browser client's calls carry (cookie and header alike). */
export const TEST_CSRF = 'csrf-token-for-the-tests-0123456789';

/**
 * One allauth call as `who` (anonymous without), to the app or browser client's `/_allauth/{client}/v1/{path}`: a
 * browser session goes as its cookie with the CSRF token and the Origin of `https://plans.example.com`.
 */
export function allauthCaller(
  app: () => TestApp,
  options: { ip: string; userAgents?: Record<Signed['client'], string> },
) {
  return (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    who?: Signed,
    body?: object,
  ): Promise<LightMyRequestResponse> => {
    const browser = who?.client === 'browser';
    const userAgent = options.userAgents?.[browser ? 'browser' : 'app'];
    return app().app.inject({
      method,
      url: `/_allauth/${browser ? 'browser' : 'app'}/v1/${path}`,
      remoteAddress: options.ip,
      headers: {
        ...(userAgent ? { 'user-agent': userAgent } : {}),
        ...(who && !browser ? { 'x-session-token': who.token } : {}),
        ...(browser
          ? {
              cookie: `sessionid=${who.token}; csrftoken=${TEST_CSRF}`,
              'x-csrftoken': TEST_CSRF,
              origin: 'https://plans.example.com',
            }
          : {}),
      },
      ...(body ? { payload: body } : {}),
    });
  };
}
