import type { SessionSnapshot } from '@planwright/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { browserAuthClientOf } from '../api/browser-auth-client';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';

/** The stored session (token, e-mail, name, avatar), live. */
export function useSession(): SessionSnapshot {
  const { tokenStore } = usePlanwrightClient();
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.getSnapshot, tokenStore.getSnapshot);
}

/** What the account pages build their flows' ports from. */
export function useAccountServices() {
  const client = usePlanwrightClient();
  return {
    client,
    browserAuth: browserAuthClientOf(client),
    ports: useBrowserPorts(),
    navigate: useNavigate(),
    queryClient: useQueryClient(),
  };
}
