import {
  ORGANIZATION_ROLES,
  type Organization,
  type OrganizationDetail,
  type OrganizationMember,
  type OrganizationRole,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { currentUserQuery } from '../../account/account-queries';
import { SIGNED_IN_TEXTS } from '../../account/account-texts';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import {
  organizationQuery,
  organizationsQuery,
  teamQuery,
  useOrganizationActions,
} from '../../organizations/organization-queries';
import { ORGANIZATION_ROLE_LABELS, TEAM_PAGE_TEXTS as TEXTS } from '../../organizations/organization-texts';
import { OutcomeMessage, type RunAction, useActionOutcome } from '../../sharing/action-outcome';
import { InvitationForm } from '../../sharing/invitation-form';
import { InvitationsNotice } from '../../sharing/invitations-notice';
import { PendingInvitations } from '../../sharing/pending-invitations';
import { sharingFailure } from '../../sharing/sharing-queries';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';

/** What the last action said: a confirmation (announced politely) or a refusal. */
type Run = RunAction;

function nameOf(member: OrganizationMember): string {
  return `${member.user.first_name} ${member.user.last_name}`.trim() || member.user.username;
}

/**
 * `/dashboard/team` (docs/teams.md): the people the caller shares plans with, and their organisations: create
 * one; its admins rename and delete it, invite members by e-mail as admin or member (resend, revoke), change
 * roles and remove members; any member leaves. Invitations waiting for the caller show on top. Every refusal
 * shows the server's sentence.
 */
export function TeamPage() {
  const crumbs = useMemo<readonly BreadcrumbItem[]>(
    () => [{ label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' }, { label: TEXTS.title }],
    [],
  );
  useBreadcrumbs(crumbs);
  const { outcome, run } = useActionOutcome(TEXTS.failed);
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-10" aria-labelledby="team-title">
      <title>{`${TEXTS.title} · Planwright`}</title>
      <header>
        <h1 id="team-title" className="text-2xl font-bold sm:text-3xl">
          {TEXTS.title}
        </h1>
        <p className="mt-2 opacity-80">{TEXTS.intro}</p>
      </header>
      <OutcomeMessage outcome={outcome} />
      <InvitationsNotice />
      <TeamPeople />
      <Organizations run={run} />
    </section>
  );
}

function TeamPeople() {
  const client = usePlanwrightClient();
  const team = useQuery(teamQuery(client));
  let body: ReactNode;
  if (team.data) {
    body =
      team.data.people.length === 0 ? (
        <p className="opacity-80">{TEXTS.peopleEmpty}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {team.data.people.map((person) => (
            <li key={person.user.id} className="flex items-center justify-between gap-2 py-2">
              <span dir="auto" className="min-w-0 truncate">
                {`${person.user.first_name} ${person.user.last_name}`.trim() || person.user.username}
              </span>
              <span className="text-sm opacity-80">{TEXTS.plans(person.plans)}</span>
            </li>
          ))}
        </ul>
      );
  } else if (team.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void team.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  }
  return (
    <section aria-labelledby="team-people" className="flex flex-col gap-3">
      <h2 id="team-people" className="text-xl font-semibold">
        {TEXTS.people}
      </h2>
      {body}
    </section>
  );
}

function Organizations({ run }: { run: Run }) {
  const client = usePlanwrightClient();
  const organizations = useQuery(organizationsQuery(client));
  const actions = useOrganizationActions();
  const [name, setName] = useState('');
  const nameId = useId();
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(() => actions.create.mutateAsync(name), null).then((created) => created && setName(''));
  };
  let body: ReactNode;
  if (organizations.data) {
    body =
      organizations.data.items.length === 0 ? (
        <p className="opacity-80">{TEXTS.organizationsEmpty}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {organizations.data.items.map((organization) => (
            <li key={organization.id}>
              <OrganizationCard organization={organization} run={run} />
            </li>
          ))}
        </ul>
      );
  } else if (organizations.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void organizations.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  }
  return (
    <section aria-labelledby="team-organizations" className="flex flex-col gap-3">
      <h2 id="team-organizations" className="text-xl font-semibold">
        {TEXTS.organizations}
      </h2>
      {body}
      <form onSubmit={create} className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-56 flex-1 flex-col gap-1 text-sm">
          <label htmlFor={nameId}>{TEXTS.newOrganization}</label>
          <input
            id={nameId}
            className="input w-full"
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={actions.create.isPending}>
          {TEXTS.create}
        </button>
      </form>
    </section>
  );
}

function OrganizationCard({ organization, run }: { organization: Organization; run: Run }) {
  const client = usePlanwrightClient();
  const detail = useQuery(organizationQuery(client, organization.id));
  const me = useQuery(currentUserQuery(client));
  const actions = useOrganizationActions();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const headingId = useId();
  const admin = organization.role === 'admin';
  return (
    <article aria-labelledby={headingId} className="card border border-base-300 bg-base-100">
      <div className="card-body gap-3 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <h3
            id={headingId}
            className="min-w-40 flex-1 text-lg font-semibold [overflow-wrap:anywhere]"
            dir="auto"
          >
            {organization.name}
          </h3>
          {organization.role && (
            <span className="badge badge-ghost">
              {ORGANIZATION_ROLE_LABELS[organization.role as OrganizationRole] ?? organization.role}
            </span>
          )}
          {admin && !renaming && (
            <>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={TEXTS.renameLabel(organization.name)}
                onClick={() => setRenaming(true)}
              >
                {TEXTS.rename}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm text-error"
                onClick={() => setDeleting(true)}
              >
                {TEXTS.delete}
              </button>
            </>
          )}
        </div>
        {renaming && (
          <RenameForm
            current={organization.name}
            onCancel={() => setRenaming(false)}
            onSave={(name) =>
              run(() => actions.rename.mutateAsync({ id: organization.id, name }), null).then((saved) => {
                if (saved) setRenaming(false);
              })
            }
          />
        )}
        {detail.data ? (
          <Members organization={detail.data} admin={admin} myId={me.data?.id ?? null} run={run} />
        ) : detail.isError ? (
          <LoadError title={TEXTS.loadFailed} onRetry={() => void detail.refetch()} />
        ) : (
          <LoadingStatus>{TEXTS.loading}</LoadingStatus>
        )}
        {admin && (
          <InvitationForm
            heading={TEXTS.inviteMember}
            roles={ORGANIZATION_ROLES}
            roleLabel={(role) => ORGANIZATION_ROLE_LABELS[role]}
            initialRole="member"
            busy={actions.invite.isPending}
            onInvite={(email, role) =>
              run(
                () => actions.invite.mutateAsync({ id: organization.id, email, role }),
                TEXTS.invited(email),
              )
            }
          />
        )}
        {admin && (
          <PendingInvitations
            invitations={detail.data?.invitations ?? null}
            roleLabel={(role) => ORGANIZATION_ROLE_LABELS[role]}
            onResend={(invitation) =>
              void run(
                () =>
                  actions.resendInvitation.mutateAsync({ id: organization.id, invitation: invitation.id }),
                TEXTS.resent(invitation.email),
              )
            }
            onRevoke={(invitation) =>
              void run(
                () =>
                  actions.revokeInvitation.mutateAsync({ id: organization.id, invitation: invitation.id }),
                null,
              )
            }
          />
        )}
      </div>
      {deleting && (
        <ConfirmDialog
          heading={TEXTS.delete}
          confirmLabel={TEXTS.confirmDelete}
          busyLabel={TEXTS.confirmDelete}
          onConfirm={() => actions.remove.mutateAsync(organization.id)}
          failureMessage={(error) => sharingFailure(error, TEXTS.failed)}
          onClose={() => setDeleting(false)}
        >
          {TEXTS.deleteConfirm(organization.name)}
        </ConfirmDialog>
      )}
    </article>
  );
}

function RenameForm({
  current,
  onCancel,
  onSave,
}: {
  current: string;
  onCancel: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(current);
  const id = useId();
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave(name);
      }}
    >
      <div className="flex min-w-56 flex-1 flex-col gap-1 text-sm">
        <label htmlFor={id}>{TEXTS.name}</label>
        <input
          id={id}
          className="input input-sm w-full"
          required
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-sm">
        {TEXTS.save}
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
        {TEXTS.cancel}
      </button>
    </form>
  );
}

function Members({
  organization,
  admin,
  myId,
  run,
}: {
  organization: OrganizationDetail;
  admin: boolean;
  myId: string | null;
  run: Run;
}) {
  const actions = useOrganizationActions();
  return (
    <div className="flex flex-col gap-1">
      <h4 className="font-medium">{TEXTS.members}</h4>
      <ul className="flex flex-col divide-y divide-base-300">
        {organization.members.map((member) => {
          const id = member.user.id ?? member.user.username;
          const mine = member.user.id !== null && member.user.id === myId;
          const name = nameOf(member);
          return (
            <li key={id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="min-w-0 flex-1 truncate" dir="auto">
                {name} {mine && <span className="opacity-80">{TEXTS.you}</span>}
              </span>
              {admin ? (
                <select
                  className="select select-sm w-32"
                  aria-label={TEXTS.roleOf(name)}
                  value={member.role ?? 'member'}
                  onChange={(event) => {
                    const role = ORGANIZATION_ROLES.find((candidate) => candidate === event.target.value);
                    if (role) {
                      void run(
                        () => actions.setMemberRole.mutateAsync({ id: organization.id, member: id, role }),
                        null,
                      );
                    }
                  }}
                >
                  {ORGANIZATION_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {ORGANIZATION_ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
              ) : (
                <span className="badge badge-ghost">
                  {ORGANIZATION_ROLE_LABELS[(member.role ?? 'member') as OrganizationRole] ?? member.role}
                </span>
              )}
              {(admin || mine) && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={mine ? undefined : TEXTS.removeLabel(name)}
                  onClick={() =>
                    void run(
                      () => actions.removeMember.mutateAsync({ id: organization.id, member: id }),
                      null,
                    )
                  }
                >
                  {mine ? TEXTS.leave : TEXTS.remove}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
