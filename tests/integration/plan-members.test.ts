import { ApiError, type DocumentDetail } from '@planwright/sdk';
import { LIVE_REFUSED, type LiveDocument, openLiveDocument } from '@planwright/sdk/live';
import { lastKeyFor, readOutbox } from '@planwright/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { settled, storedParagraphs, typeIntoParagraph } from '../support/live-replicas.js';
import { rejectionOf, type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Teams on a plan through the SDK against the real server (docs/teams.md): an invitation by e-mail accepted from
 * its link by someone who signs up for it, the roles as the REST API and the live-plan socket enforce them, and
 * people losing access with the plan open.
 */

let server: TestServer;
let counter = 0;
const opened: LiveDocument[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const live of opened.splice(0)) live.destroy();
});
afterAll(async () => {
  await server?.close();
});

const address = (name: string) => `${name}-${++counter}@teams.example`;

/** Invites a new address as `role` and has its owner sign up and accept from the e-mail's link. */
async function invitedMember(
  owner: SdkAccount,
  plan: DocumentDetail,
  role: 'viewer' | 'commenter' | 'editor',
) {
  const email = address(role);
  await owner.client.members.invite(plan.uuid, { email, role });
  const member = await signUpWithSdk(server, email);
  const token = await lastKeyFor(server.outboxDir, email, '/invitations/');
  expect(await member.client.invitations.acceptLink(`${server.url}/invitations/${token}`)).toEqual({
    document: { uuid: plan.uuid, title: plan.title },
    organization: null,
    role,
  });
  return member;
}

function openLive(account: SdkAccount, plan: DocumentDetail): LiveDocument {
  const live = openLiveDocument({
    baseUrl: server.url,
    documentId: plan.uuid,
    token: account.tokenStore.getToken,
    WebSocket,
  });
  opened.push(live);
  return live;
}

async function notPermitted(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  expect(
    ApiError.isInstance(error) && error.status === 404 && error.serverCode === 'not_permitted',
    String(error),
  ).toBe(true);
  return error as ApiError;
}

describe('teams on a plan through the SDK', () => {
  it('PM1 someone invited by e-mail signs up, accepts from the link and gets exactly their role', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const plan = await owner.client.documents.create({ title: 'Cafe plan' });
    const advisor = await invitedMember(owner, plan, 'commenter');

    const shared = await advisor.client.documents.list({ scope: 'shared' });
    expect(shared.items.map((item) => [item.title, item.role])).toEqual([['Cafe plan', 'commenter']]);
    expect((await advisor.client.documents.list()).items).toEqual([]);
    const read = await advisor.client.documents.get(plan.uuid);
    expect(read.role).toBe('commenter');
    expect((await advisor.client.documents.exportFile(plan.uuid, 'md')).fileName).toBe('Cafe plan.md');
    const refused = await notPermitted(advisor.client.documents.update(plan.uuid, { title: 'Mine now' }));
    expect(refused.detail).toBe('Your role on this document does not let you change it.');
    await notPermitted(
      advisor.client.members.invite(plan.uuid, { email: address('friend'), role: 'viewer' }),
    );
    // Their token survives the refusal: a role is not a sign-out.
    expect(advisor.tokenStore.getToken()).not.toBeNull();

    const sharing = await owner.client.members.list(plan.uuid);
    expect(sharing.members.map((member) => [member.user.email, member.role])).toEqual([
      [owner.email, 'owner'],
      [advisor.email, 'commenter'],
    ]);
    expect(sharing.invitations).toEqual([]);
    // An address that already has an account gets the e-mail too, and can accept by id.
    const partner = await signUpWithSdk(server, address('partner'));
    const sent = await owner.client.members.invite(plan.uuid, { email: partner.email, role: 'editor' });
    const [received] = await partner.client.invitations.list();
    expect(received).toMatchObject({
      id: sent.id,
      document: { uuid: plan.uuid, title: 'Cafe plan' },
      role: 'editor',
    });
    await partner.client.invitations.accept(sent.id);
    expect((await partner.client.documents.update(plan.uuid, { title: 'Cafe plan, v2' })).title).toBe(
      'Cafe plan, v2',
    );
  });

  it('PM2 the live socket follows the role: a viewer follows read-only, promoted they type, removed they are closed out', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const plan = await owner.client.documents.create({ title: 'Live team plan' });
    const member = await invitedMember(owner, plan, 'viewer');
    const live = openLive(member, plan);
    expect((await settled(live, (s) => s.synced)).readOnly).toBe(true);

    const me = await member.client.auth.me();
    await owner.client.members.setRole(plan.uuid, String(me.id), 'editor');
    // Told at once: the socket reconnects and is let in to write.
    await settled(live, (s) => s.synced && !s.readOnly);
    typeIntoParagraph(live.document, 0, 'Written by the new editor.');
    await settled(live, (s) => s.saved);
    expect((await storedParagraphs(owner.client, plan.uuid))[0]).toContain('Written by the new editor.');

    await owner.client.members.remove(plan.uuid, String(me.id));
    expect((await settled(live, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_REFUSED,
    });
    const gone = await rejectionOf(member.client.documents.get(plan.uuid));
    expect(ApiError.isInstance(gone) && gone.status === 404 && gone.serverCode === 'not_found').toBe(true);
  });

  it('PM3 a member of an organisation the plan is shared with is closed out when they leave the organisation', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const fellow = await signUpWithSdk(server, address('fellow'));
    const plan = await owner.client.documents.create({ title: 'Studio plan' });
    const studio = await owner.client.organizations.create({ name: 'Studio' });
    await owner.client.organizations.addMember(studio.id, { email: fellow.email });
    expect(await owner.client.members.shareWithOrganization(plan.uuid, studio.id, 'editor')).toEqual([
      expect.objectContaining({ organization: { id: studio.id, name: 'Studio' }, role: 'editor' }),
    ]);
    expect((await fellow.client.documents.list({ scope: 'shared' })).items.map((item) => item.role)).toEqual([
      'editor',
    ]);
    const live = openLive(fellow, plan);
    expect((await settled(live, (s) => s.synced)).readOnly).toBe(false);

    const me = await fellow.client.auth.me();
    await fellow.client.organizations.removeMember(studio.id, String(me.id));
    expect((await settled(live, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_REFUSED,
    });
    expect((await fellow.client.documents.list({ scope: 'all' })).items).toEqual([]);
  });

  it('PM7 an organisation admin invites an address with no account; it signs up, accepts and opens the plans shared with the organisation, live', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const plan = await owner.client.documents.create({ title: 'Cohort plan' });
    const cohort = await owner.client.organizations.create({ name: 'Cohort 12' });
    await owner.client.members.shareWithOrganization(plan.uuid, cohort.id, 'commenter');
    const email = address('mentor');
    const sent = await owner.client.organizations.invite(cohort.id, { email });
    expect(sent).toMatchObject({ email, role: 'member' });
    expect((await owner.client.organizations.get(cohort.id)).invitations).toEqual([sent]);

    const mentor = await signUpWithSdk(server, email);
    const [pending] = await mentor.client.invitations.list();
    expect(pending).toMatchObject({ document: null, organization: { id: cohort.id, name: 'Cohort 12' } });
    const token = await lastKeyFor(server.outboxDir, email, '/invitations/');
    expect(await mentor.client.invitations.acceptLink(token)).toEqual({
      document: null,
      organization: { id: cohort.id, name: 'Cohort 12' },
      role: 'member',
    });
    expect((await mentor.client.organizations.get(cohort.id)).invitations).toBeNull();
    expect((await mentor.client.documents.list({ scope: 'shared' })).items.map((item) => item.role)).toEqual([
      'commenter',
    ]);
    const live = openLive(mentor, plan);
    expect((await settled(live, (s) => s.synced)).readOnly).toBe(true);
    expect((await owner.client.organizations.get(cohort.id)).invitations).toEqual([]);
  });

  it('PM4 a member leaves; the owner revokes a pending invitation and its link stops working', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const plan = await owner.client.documents.create({ title: 'Leaving plan' });
    const member = await invitedMember(owner, plan, 'editor');
    await member.client.members.leave(plan.uuid);
    expect((await member.client.documents.list({ scope: 'shared' })).items).toEqual([]);

    const email = address('late');
    const sent = await owner.client.members.invite(plan.uuid, { email, role: 'viewer' });
    const token = await lastKeyFor(server.outboxDir, email, '/invitations/');
    await owner.client.members.revokeInvitation(plan.uuid, sent.id);
    const late = await signUpWithSdk(server, email);
    const refused = await rejectionOf(late.client.invitations.acceptLink(token));
    expect(ApiError.isInstance(refused) && refused.serverCode === 'invitation_invalid').toBe(true);
    expect((await owner.client.members.list(plan.uuid)).members.map((m) => m.role)).toEqual(['owner']);
  });

  it('PM6 a comment appears live: everyone with the plan open is told, and reads the thread with its mention', async () => {
    const owner = await signUpWithSdk(server, address('owner'));
    const plan = await owner.client.documents.create({ title: 'Commented plan' });
    const advisor = await invitedMember(owner, plan, 'commenter');
    const live = openLive(owner, plan);
    await settled(live, (s) => s.synced);
    const before = live.getSnapshot().commentsRevision;
    const subsection = plan.sections[0]?.subsections[0]?.uuid ?? '';
    const ownerName = owner.email.split('@')[0] ?? '';
    const thread = await advisor.client.comments.create(plan.uuid, {
      subsection,
      body: `@${ownerName} is this number right?`,
      quote: 'the number',
    });
    await settled(live, (s) => s.commentsRevision > before);
    const [seen] = await owner.client.comments.list(plan.uuid, { status: 'open' });
    expect(seen).toMatchObject({ id: thread.id, quote: 'the number', status: 'open' });
    expect(seen?.messages[0]?.body).toBe(`@${ownerName} is this number right?`);
    // The owner was e-mailed a link to the thread.
    const mails = (await readOutbox(server.outboxDir)).filter((mail) => mail.to === owner.email);
    const targets = (mails.at(-1)?.links ?? [])
      .map((link) => new URL(link))
      .map((url) => url.pathname + url.search);
    expect(targets).toContain(`/dashboard/documents/${plan.uuid}/edit?comment=${thread.id}`);
    await owner.client.comments.setStatus(plan.uuid, thread.id, 'resolved');
    await settled(live, (s) => s.commentsRevision > before + 1);
    expect(await owner.client.comments.list(plan.uuid, { status: 'open' })).toEqual([]);
  });
});
