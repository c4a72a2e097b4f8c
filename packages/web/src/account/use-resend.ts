import { Flow } from '../state/flow';
import { useFlow, useLatest } from '../state/use-flow';
import { performResend, type ResendEvent, type ResendState, resendMachine } from './resend-flow';
import { useAccountServices } from './use-account';

/** The resend flow over the app client's `users/resend-verification/`. */
export function useResend(): [ResendState, (event: ResendEvent) => void] {
  const services = useAccountServices();
  const latest = useLatest(services);
  return useFlow(
    () =>
      new Flow(resendMachine, {
        clock: services.ports.clock,
        perform: performResend(() => ({
          resendVerification: (email) => latest().client.auth.resendVerification(email),
          logError: (message, error) => latest().ports.logError(message, error),
        })),
      }),
  );
}
