import { PROVIDER_SIGN_IN_TEXTS, type SessionResult } from '@planwright/sdk';
import type { FlowMachine, Step } from '../state/flow';
import { sendOutcome } from '../state/flow';

/**
 * The third-party sign-in callback (spec 000 §4 "Third-party sign-in callback", §8): the server has
 * finished with the provider and set the session cookie; the browser client's `GET auth/session` hands
 * back the session token, which the SDK stores. A popup reports to its opener and closes; otherwise the
 * page goes on to `next`. Rules G1–G4 in SPEC.md.
 */
export type ProviderCallbackState =
  | { status: 'checking' }
  /** Google was right and the account has a second factor: the page asks for its code. */
  | { status: 'second_factor' }
  | { status: 'signed_in' }
  | { status: 'failed'; message: string };

export type ProviderCallbackEvent =
  | { type: 'answered'; result: SessionResult }
  | { type: 'crashed'; error: unknown };

export type ProviderCallbackOutcome = { ok: true } | { ok: false; message: string };

export type ProviderCallbackEffect =
  | { type: 'check_session' }
  | { type: 'finish'; outcome: ProviderCallbackOutcome };

/** The message a popup posts to its opener (same origin only). */
export const PROVIDER_CALLBACK_MESSAGE_TYPE = 'planwright:provider-sign-in';

export interface ProviderCallbackMessage {
  type: typeof PROVIDER_CALLBACK_MESSAGE_TYPE;
  status: 'success' | 'error';
  /** The spec's text, on failure. */
  message?: string;
}

export function providerCallbackMessage(outcome: ProviderCallbackOutcome): ProviderCallbackMessage {
  return outcome.ok
    ? { type: PROVIDER_CALLBACK_MESSAGE_TYPE, status: 'success' }
    : { type: PROVIDER_CALLBACK_MESSAGE_TYPE, status: 'error', message: outcome.message };
}

function fail(message: string) {
  return {
    state: { status: 'failed', message } as const,
    effects: [{ type: 'finish', outcome: { ok: false, message } } as const],
  };
}

/**
 * `providerError` is the callback's `?error=` (the server's redirect after a refused or failed sign-in,
 * `docs/auth.md`): G5, such a callback fails at once, without asking for the session, so an older
 * cookie session can never pass a refused sign-in off as a success.
 */
export function providerCallbackMachine(
  providerError: string | null,
): FlowMachine<ProviderCallbackState, ProviderCallbackEvent, ProviderCallbackEffect> {
  return {
    initial:
      providerError === null
        ? { state: { status: 'checking' }, effects: [{ type: 'check_session' }] }
        : fail(PROVIDER_SIGN_IN_TEXTS.failed),
    transition: providerCallbackTransition,
  };
}

function providerCallbackTransition(
  state: ProviderCallbackState,
  event: ProviderCallbackEvent,
): Step<ProviderCallbackState, ProviderCallbackEffect> {
  if (state.status !== 'checking') return { state };
  switch (event.type) {
    case 'answered':
      // G2: signed in only when the server says so; anything else is a failed sign-in.
      if (event.result.kind === 'authenticated')
        return { state: { status: 'signed_in' }, effects: [{ type: 'finish', outcome: { ok: true } }] };
      // The account has a second factor: its code is asked next (the page's form), then `finish`.
      if (event.result.kind === 'pending' && event.result.flow === 'mfa_authenticate')
        return { state: { status: 'second_factor' } };
      return fail(PROVIDER_SIGN_IN_TEXTS.failed);
    case 'crashed':
      return fail(PROVIDER_SIGN_IN_TEXTS.callbackError); // G3
  }
}

/** What the callback flow calls. */
export interface ProviderCallbackPorts {
  /** The browser client's `GET auth/session` (with credentials): stores the token when signed in. */
  session(): Promise<SessionResult>;
  /** G4: report to the opener and close when a popup; else go on to `next` after a success. */
  finish(outcome: ProviderCallbackOutcome): void;
}

export function performProviderCallback(ports: () => ProviderCallbackPorts) {
  return (effect: ProviderCallbackEffect, send: (event: ProviderCallbackEvent) => void): void => {
    switch (effect.type) {
      case 'check_session':
        sendOutcome(ports().session(), send);
        return;
      case 'finish':
        ports().finish(effect.outcome);
        return;
    }
  };
}
