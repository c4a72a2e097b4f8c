// The SDK's own simulated clock (`@planwright/sdk/testing`) serves the save controller's tests too.
export { ManualClock } from '@planwright/sdk/testing';
