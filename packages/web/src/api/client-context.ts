import type { PlanwrightClient } from '@planwright/sdk';
import { createContext } from 'react';

export type { PlanwrightClient };

/**
 * Lets a test (or a future embedding) supply its own client. Empty by default: the pages then use the
 * app's shared client, which is only imported by the routes that talk to the server, so `/` never
 * loads the SDK.
 */
export const PlanwrightClientContext = createContext<PlanwrightClient | null>(null);
