import { useContext } from 'react';
import { type PlanwrightClient, PlanwrightClientContext } from './client-context';
import { getDefaultPlanwrightClient } from './default-client';

/** The client from context, else the app's shared one. */
export function usePlanwrightClient(): PlanwrightClient {
  return useContext(PlanwrightClientContext) ?? getDefaultPlanwrightClient();
}
