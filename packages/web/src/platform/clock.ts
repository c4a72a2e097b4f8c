/**
 * Time as the web app uses it: the SDK's one `Clock` (the current time and one-shot timers) and its real clock,
 * which looks the globals up at each call, never at import, so a test that swaps the globals (or passes its own
 * clock) controls every timer.
 */
export { type Clock, systemClock } from '@planwright/sdk';
