import {
  type PlanMember,
  type PlanSharing,
  planRoleAllows,
  SHARED_PLAN_ROLES,
  type SharedPlanRole,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useRef, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { organizationsQuery } from '../organizations/organization-queries';
import { Dialog } from '../ui/dialog';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { SelectField } from '../ui/select-field';
import { OutcomeMessage, type RunAction, useActionOutcome } from './action-outcome';
import { InvitationForm } from './invitation-form';
import { PendingInvitations } from './pending-invitations';
import { ShareLinksSection } from './share-links-section';
import { sharingQuery, useSharingActions } from './sharing-queries';
import { ROLE_LABELS, SHARING_TEXTS as TEXTS } from './sharing-texts';

/** A member's name as people read it: first and last name, else the username. */
function nameOf(member: PlanMember): string {
  return `${member.user.first_name} ${member.user.last_name}`.trim() || member.user.username;
}

/**
 * File › Share… (docs/teams.md): who has the plan and as what; the owner (and editors, when allowed) invite
 * by e-mail with a role, resend and revoke pending invitations; the owner changes roles, removes people,
 * shares the plan with an organisation and lets editors invite; a member may leave. Every refusal shows the
 * server's own sentence.
 */
export function ShareDialog({
  uuid,
  title,
  onClose,
  onLeft,
}: {
  uuid: string;
  title: string;
  onClose: () => void;
  /** After the caller left the plan (it is no longer theirs to see). */
  onLeft: () => void;
}) {
  const client = usePlanwrightClient();
  const sharing = useQuery(sharingQuery(client, uuid));
  const closeRef = useRef<HTMLButtonElement>(null);
  const { outcome, run } = useActionOutcome(TEXTS.failed);

  let body: ReactNode;
  if (sharing.data) {
    body = <SharingBody uuid={uuid} sharing={sharing.data} run={run} onLeft={onLeft} />;
  } else if (sharing.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void sharing.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  }
  return (
    <Dialog title={TEXTS.dialogTitle(title)} onClose={onClose} initialFocus={closeRef}>
      <div className="mt-3 flex max-h-[70vh] flex-col gap-5 overflow-y-auto">
        <OutcomeMessage outcome={outcome} />
        {body}
        <div className="modal-action mt-0">
          <button ref={closeRef} type="button" className="btn" onClick={onClose}>
            {TEXTS.close}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function SharingBody({
  uuid,
  sharing,
  run,
  onLeft,
}: {
  uuid: string;
  sharing: PlanSharing;
  /** Runs a call, saying what it did or why it was refused. */
  run: RunAction;
  onLeft: () => void;
}) {
  const actions = useSharingActions(uuid);
  const owns = sharing.role === 'owner';
  const mayInvite = planRoleAllows(sharing.role, 'share', sharing.editorsCanShare);
  return (
    <>
      <section aria-labelledby={`${uuid}-people`} className="flex flex-col gap-2">
        <h3 id={`${uuid}-people`} className="font-semibold">
          {TEXTS.people}
        </h3>
        <ul className="flex flex-col divide-y divide-base-300">
          {sharing.members.map((member) => (
            <li key={member.user.id} className="flex flex-wrap items-center gap-2 py-2">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium" dir="auto">
                  {nameOf(member)} {member.is_you && <span className="opacity-80">{TEXTS.you}</span>}
                </p>
                <p className="truncate text-sm opacity-80">{member.user.email ?? member.user.username}</p>
              </div>
              {owns && member.role !== 'owner' ? (
                <>
                  <select
                    className="select select-sm w-36"
                    aria-label={TEXTS.roleOf(nameOf(member))}
                    value={member.role}
                    onChange={(event) => {
                      const role = SHARED_PLAN_ROLES.find((candidate) => candidate === event.target.value);
                      if (role)
                        void run(() => actions.setRole.mutateAsync({ userId: member.user.id, role }), null);
                    }}
                  >
                    {SHARED_PLAN_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.removeLabel(nameOf(member))}
                    onClick={() => void run(() => actions.remove.mutateAsync(member.user.id), null)}
                  >
                    {TEXTS.remove}
                  </button>
                </>
              ) : (
                <span className="badge badge-ghost">{ROLE_LABELS[member.role]}</span>
              )}
            </li>
          ))}
        </ul>
        {!owns && (
          <LeaveControl
            busy={actions.leave.isPending}
            onLeave={() => void run(() => actions.leave.mutateAsync(), null).then((left) => left && onLeft())}
          />
        )}
      </section>
      {mayInvite && (
        <InvitationForm
          heading={TEXTS.invite}
          roles={SHARED_PLAN_ROLES}
          roleLabel={(role) => ROLE_LABELS[role]}
          initialRole="commenter"
          busy={actions.invite.isPending}
          onInvite={(email, role) =>
            run(() => actions.invite.mutateAsync({ email, role }), TEXTS.invited(email))
          }
        />
      )}
      <PendingInvitations
        invitations={sharing.invitations}
        roleLabel={(role) => ROLE_LABELS[role]}
        onResend={(invitation) =>
          void run(() => actions.resend.mutateAsync(invitation.id), TEXTS.resent(invitation.email))
        }
        onRevoke={(invitation) => void run(() => actions.revoke.mutateAsync(invitation.id), null)}
      />
      <OrganizationsSection uuid={uuid} sharing={sharing} run={run} />
      {owns && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={sharing.editorsCanShare}
            onChange={(event) => {
              const allowed = event.target.checked;
              void run(() => actions.setEditorsCanShare.mutateAsync(allowed), null);
            }}
          />
          {TEXTS.editorsCanShare}
        </label>
      )}
      {mayInvite && <ShareLinksSection uuid={uuid} run={run} />}
    </>
  );
}

/** A member's way out: asked once more inline (a second dialog over this one would trap the focus twice). */
function LeaveControl({ busy, onLeave }: { busy: boolean; onLeave: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm opacity-80">{TEXTS.readOnlyNote}</p>
        <button type="button" className="btn btn-sm btn-outline btn-error" onClick={() => setAsking(true)}>
          {TEXTS.leave}
        </button>
      </div>
    );
  }
  return (
    <fieldset className="flex flex-wrap items-center justify-between gap-2" aria-label={TEXTS.leave}>
      <p className="text-sm">{TEXTS.leaveConfirm}</p>
      <div className="flex gap-2">
        <button type="button" className="btn btn-sm" onClick={() => setAsking(false)}>
          {TEXTS.cancel}
        </button>
        <button type="button" className="btn btn-sm btn-error" disabled={busy} onClick={onLeave}>
          {TEXTS.leaveConfirmButton}
        </button>
      </div>
    </fieldset>
  );
}

function RoleSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: SharedPlanRole;
  onChange: (role: SharedPlanRole) => void;
}) {
  return (
    <SelectField
      compact
      name="role"
      label={label}
      value={value}
      options={SHARED_PLAN_ROLES}
      optionLabel={(role) => ROLE_LABELS[role]}
      onChange={onChange}
    />
  );
}

/** The organisations the plan is shared with; the owner shares it with one of theirs, or stops. */
function OrganizationsSection({
  uuid,
  sharing,
  run,
}: {
  uuid: string;
  sharing: PlanSharing;
  run: (call: () => Promise<unknown>, success: string | null) => Promise<boolean>;
}) {
  const client = usePlanwrightClient();
  const owns = sharing.role === 'owner';
  const organizations = useQuery({ ...organizationsQuery(client), enabled: owns });
  const actions = useSharingActions(uuid);
  const [chosen, setChosen] = useState('');
  const [role, setRole] = useState<SharedPlanRole>('viewer');
  const organizationId = useId();
  if (!owns && sharing.organizations.length === 0) return null;
  const granted = new Set(sharing.organizations.map((grant) => grant.organization.id));
  const offered = (organizations.data?.items ?? []).filter((organization) => !granted.has(organization.id));
  const target = offered.find((organization) => organization.id === chosen) ?? offered[0];
  return (
    <section aria-labelledby={`${uuid}-organizations`} className="flex flex-col gap-2">
      <h3 id={`${uuid}-organizations`} className="font-semibold">
        {TEXTS.organizations}
      </h3>
      {sharing.organizations.length > 0 && (
        <ul className="flex flex-col divide-y divide-base-300">
          {sharing.organizations.map((grant) => (
            <li key={grant.organization.id} className="flex items-center gap-2 py-2">
              <span className="min-w-0 flex-1 truncate" dir="auto">
                {grant.organization.name}
              </span>
              <span className="badge badge-ghost">{ROLE_LABELS[grant.role]}</span>
              {owns && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={TEXTS.unshareLabel(grant.organization.name)}
                  onClick={() =>
                    void run(() => actions.unshareWithOrganization.mutateAsync(grant.organization.id), null)
                  }
                >
                  {TEXTS.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {owns && organizations.data && organizations.data.items.length === 0 && (
        <p className="text-sm opacity-80">{TEXTS.noOrganizations}</p>
      )}
      {owns && target && (
        <div className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
            <label htmlFor={organizationId}>{TEXTS.organization}</label>
            <select
              id={organizationId}
              className="select select-sm w-full"
              value={target.id}
              onChange={(event) => setChosen(event.target.value)}
            >
              {offered.map((organization) => (
                <option key={organization.id} value={organization.id}>
                  {organization.name}
                </option>
              ))}
            </select>
          </div>
          <RoleSelect label={TEXTS.role} value={role} onChange={setRole} />
          <button
            type="button"
            className="btn btn-sm"
            onClick={() =>
              void run(
                () => actions.shareWithOrganization.mutateAsync({ organizationId: target.id, role }),
                null,
              )
            }
          >
            {TEXTS.shareWithOrganization}
          </button>
        </div>
      )}
    </section>
  );
}
