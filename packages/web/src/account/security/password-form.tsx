import type { AuthClient } from '@planwright/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { TextField } from '../../ui/text-field';
import { type Outcome, OutcomeLine, refusal, Subsection, securityKeys } from './security-parts';
import { SECURITY_TEXTS as TEXTS } from './security-texts';

/** Profile › Security › Password: change it (the current one asked), or set a first one (an account made with Google). */
export function PasswordForm({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ current: string | null; next: string | null }>({
    current: null,
    next: null,
  });
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    setErrors({ current: null, next: null });
    try {
      const result = await auth.changePassword({
        ...(hasPassword ? { currentPassword: current } : {}),
        newPassword: next,
      });
      if (result.kind === 'authenticated') {
        setCurrent('');
        setNext('');
        setOutcome({ kind: 'success', text: hasPassword ? TEXTS.passwordChanged : TEXTS.passwordSet });
        void queryClient.invalidateQueries({ queryKey: securityKeys.all });
      } else if (result.kind === 'invalid') {
        setErrors({
          current: result.fieldErrors.current_password?.[0]?.message ?? null,
          next: result.fieldErrors.new_password?.[0]?.message ?? null,
        });
      } else if (result.kind === 'reauthentication_required') {
        setOutcome({ kind: 'error', text: TEXTS.signInAgainToSet });
      } else {
        setOutcome({ kind: 'error', text: refusal(result) });
      }
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Subsection title={hasPassword ? TEXTS.passwordHeading : TEXTS.setPasswordHeading}>
      {!hasPassword && <p className="text-sm opacity-80">{TEXTS.setPasswordIntro}</p>}
      <OutcomeLine outcome={outcome} />
      <form className="flex max-w-md flex-col gap-3" onSubmit={(event) => void submit(event)}>
        {hasPassword && (
          <TextField
            name="current_password"
            label={TEXTS.currentPassword}
            type="password"
            autoComplete="current-password"
            required
            value={current}
            error={errors.current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        )}
        <TextField
          name="new_password"
          label={TEXTS.newPassword}
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={next}
          error={errors.next}
          onChange={(event) => setNext(event.target.value)}
        />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? TEXTS.saving : hasPassword ? TEXTS.changePassword : TEXTS.setPassword}
          </button>
        </div>
      </form>
    </Subsection>
  );
}
