import { type FormEvent, useId, useState } from 'react';
import { SelectField } from '../ui/select-field';
import { SHARING_TEXTS as TEXTS } from './sharing-texts';

/**
 * Invite by e-mail with a role: a plan's Share dialog and an organisation on the team page (docs/teams.md).
 * The address is cleared once the invitation is sent.
 */
export function InvitationForm<Role extends string>({
  heading,
  roles,
  roleLabel,
  initialRole,
  busy,
  onInvite,
}: {
  heading: string;
  roles: readonly Role[];
  roleLabel: (role: Role) => string;
  initialRole: Role;
  busy: boolean;
  onInvite: (email: string, role: Role) => Promise<boolean>;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(initialRole);
  const emailId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onInvite(email.trim(), role).then((sent) => sent && setEmail(''));
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label={heading}>
      <h3 className="font-semibold">{heading}</h3>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          <label htmlFor={emailId}>{TEXTS.email}</label>
          <input
            id={emailId}
            type="email"
            name="email"
            required
            autoComplete="off"
            className="input input-sm w-full"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <SelectField
          compact
          name="role"
          label={TEXTS.role}
          value={role}
          options={roles}
          optionLabel={roleLabel}
          onChange={setRole}
        />
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? TEXTS.sending : TEXTS.sendInvitation}
        </button>
      </div>
    </form>
  );
}
