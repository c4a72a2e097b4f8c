import type { FlowMachine } from '../state/flow';

/**
 * Sign-out (spec 000 §4 "Sign-out"): the server session is deleted, the four stored values are cleared
 * (the SDK clears them whatever the server answers), then the user goes to `/`. Rule O1 in SPEC.md.
 */
export type SignOutState = { status: 'signing_out' } | { status: 'signed_out' };
export type SignOutEvent = { type: 'done' };
export type SignOutEffect = { type: 'sign_out' } | { type: 'go_home' };

export const signOutMachine: FlowMachine<SignOutState, SignOutEvent, SignOutEffect> = {
  initial: { state: { status: 'signing_out' }, effects: [{ type: 'sign_out' }] },
  transition(state) {
    return state.status === 'signing_out'
      ? { state: { status: 'signed_out' }, effects: [{ type: 'go_home' }] }
      : { state };
  },
};

/** What sign-out calls. */
export interface SignOutPorts {
  /** Deletes the server session(s) and clears the stored values; never rejects. */
  signOut(): Promise<void>;
  goHome(): void;
}

export function performSignOut(ports: () => SignOutPorts) {
  return (effect: SignOutEffect, send: (event: SignOutEvent) => void): void => {
    if (effect.type === 'go_home') ports().goHome();
    else
      ports()
        .signOut()
        .finally(() => send({ type: 'done' }));
  };
}
