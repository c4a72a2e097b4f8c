/**
 * The SDK's simulated clock (`@planwright/sdk/testing`): `advance(ms)` runs every timer that falls due, in
 * order. The pages get it through `BrowserPortsContext`, so Testing Library's own waiting keeps the real
 * timers.
 */
export { ManualClock } from '@planwright/sdk/testing';
