import type { Activity } from '@planwright/sdk';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activityEntryView } from '../src/activity/activity-entry';
import { createFakeServer, currentUser, json } from './support/fake-server';
import {
  activities,
  activityFixture,
  blueprintFixture,
  documentFixture,
  listAnswer,
  minutesAgo,
  serveWorkspace,
  type WorkspaceSeed,
} from './support/fake-workspace';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };

function setup(seed: WorkspaceSeed = {}) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  serveWorkspace(server, seed);
  return server;
}

const panel = () => screen.getByRole('region', { name: 'Recent Activity' });
const findPanel = () => screen.findByRole('region', { name: 'Recent Activity' });

describe('dashboard (spec 000 §2; SPEC.md DS1, DS2)', () => {
  it('DS1: real counts for documents and blueprints, finalized subsections, and the people one shares plans with', async () => {
    const server = setup({
      documents: [
        documentFixture({ uuid: 'a', progress: { finalized: 2, total: 4 }, created_at: minutesAgo(60) }),
        documentFixture({
          uuid: 'b',
          progress: { finalized: 1, total: 10 },
          created_at: minutesAgo(60 * 24 * 9),
        }),
      ],
      blueprints: [
        blueprintFixture({ uuid: 'x' }),
        blueprintFixture({ uuid: 'y' }),
        blueprintFixture({ uuid: 'z' }),
      ],
    });
    server.on('GET /api/v1/team/', json({ data: [], total: 4 }));
    renderApp({ path: '/dashboard', server, session: SESSION });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeTruthy();
    const tile = (title: string) =>
      within(screen.getByText(title, { selector: '.stat-title' }).closest('.stat') as HTMLElement);
    expect(await tile('Documents').findByText('2')).toBeTruthy();
    expect(tile('Documents').getByText('1 new this week')).toBeTruthy();
    expect(tile('Documents').getByRole('link', { name: 'View Documents' }).getAttribute('href')).toBe(
      '/dashboard/documents',
    );
    expect(await tile('Blueprints').findByText('3')).toBeTruthy();
    expect(tile('Blueprints').getByRole('link', { name: 'View Blueprints' }).getAttribute('href')).toBe(
      '/dashboard/blueprints',
    );
    expect(tile('Completed').getByText('3/14')).toBeTruthy();
    expect(tile('Completed').getByText('subsections finalized · 30% average progress')).toBeTruthy();
    expect(await tile('Team Members').findByText('4')).toBeTruthy();
    expect(tile('Team Members').getByRole('link', { name: 'View team' }).getAttribute('href')).toBe(
      '/dashboard/team',
    );
  });

  it('DS1: a tile whose figures could not be read says so', async () => {
    const server = setup();
    server.on('GET /api/v1/documents/', json({ detail: 'down' }, 503));
    renderApp({ path: '/dashboard', server, session: SESSION });
    expect((await screen.findAllByText('Could not be loaded')).length).toBeGreaterThan(0);
  });

  it('DS2: Recent Activity at level 1', async () => {
    const server = setup({ activities: activities(2) });
    renderApp({ path: '/dashboard', server, session: SESSION });
    expect(await within(await findPanel()).findByText('entry 1')).toBeTruthy();
    const [feed] = server.calls('/api/v1/activities/activities/');
    expect(Object.fromEntries(feed?.query ?? [])).toEqual({ level: '1', page_size: '100' });
  });
});

describe('activity panel (spec 000 §2 "Activity list"; SPEC.md AC1–AC6)', () => {
  it("AC2: the first 10, then 'Show all N' / 'Collapse'", async () => {
    const server = setup({ activities: activities(12) });
    renderApp({ path: '/dashboard', server, session: SESSION });
    const list = within(await findPanel());
    await list.findByText('entry 1');
    expect(list.getAllByRole('listitem')).toHaveLength(10);
    expect(list.queryByText('entry 11')).toBeNull();
    const toggle = list.getByRole('button', { name: 'Show all 12' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(list.getAllByRole('listitem')).toHaveLength(12);
    expect(list.getByRole('button', { name: 'Collapse' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(list.getByRole('button', { name: 'Collapse' }));
    expect(list.getAllByRole('listitem')).toHaveLength(10);
  });

  it('AC2: ten or fewer have no toggle', async () => {
    const server = setup({ activities: activities(10) });
    renderApp({ path: '/dashboard', server, session: SESSION });
    await within(await findPanel()).findByText('entry 10');
    expect(within(panel()).queryByRole('button', { name: /Show all|Collapse/ })).toBeNull();
  });

  it('AC3: expanded, says when the server holds more than were read', async () => {
    const server = setup();
    server.on('GET /api/v1/activities/activities/', listAnswer(activities(12), 250));
    renderApp({ path: '/dashboard', server, session: SESSION });
    fireEvent.click(await within(await findPanel()).findByRole('button', { name: 'Show all 12' }));
    expect(within(panel()).getByText('Showing the newest 12 of 250 entries.')).toBeTruthy();
  });

  it("AC6: 'No activity yet.' and 'Failed to load activity' with Try again", async () => {
    const server = setup();
    renderApp({ path: '/dashboard', server, session: SESSION });
    expect(await within(await findPanel()).findByText('No activity yet.')).toBeTruthy();
    cleanup();
    let fail = true;
    server.on('GET /api/v1/activities/activities/', () =>
      fail ? json({ detail: 'down' }, 500) : listAnswer(activities(1)),
    );
    renderApp({ path: '/dashboard', server, session: SESSION });
    expect(await within(await findPanel()).findByText('Failed to load activity')).toBeTruthy();
    fail = false;
    fireEvent.click(within(panel()).getByRole('button', { name: 'Try again' }));
    expect(await within(panel()).findByText('entry 1')).toBeTruthy();
  });

  it('AC4/AC5: actor, message, target, relative time from the injected clock, severity styles', async () => {
    const server = setup({
      activities: [
        activityFixture({
          id: '1',
          severity: 'error',
          message: 'failed to import',
          created_at: minutesAgo(3),
        }),
        activityFixture({ id: '2', severity: 'warn', message: 'is almost due', created_at: minutesAgo(90) }),
        activityFixture({
          id: '3',
          severity: 'system',
          actor: null,
          actor_label: null,
          message: 'seeded the default blueprint',
          created_at: minutesAgo(60 * 24 * 10),
        }),
        activityFixture({
          id: '4',
          severity: 'whatever',
          message: 'finalized a subsection',
          target_label: 'Acme plan',
          child_target_label: 'Market size',
          created_at: minutesAgo(0.2),
        }),
      ],
    });
    const app = renderApp({ path: '/dashboard', server, session: SESSION });
    const list = within(await findPanel());
    await list.findByText('failed to import', { exact: false });
    const items = list.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-severity'))).toEqual([
      'error',
      'warning',
      'system',
      'info',
    ]);
    expect(within(items[0] as HTMLElement).getByText('Error').className).toContain('badge-error');
    expect(within(items[0] as HTMLElement).getByText('3 minutes ago')).toBeTruthy();
    expect(items[0]?.querySelector('p')?.className).toContain('text-error');
    expect(within(items[1] as HTMLElement).getByText('Warning')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('1 hour ago')).toBeTruthy();
    expect(within(items[2] as HTMLElement).getByText('Someone')).toBeTruthy();
    expect(within(items[2] as HTMLElement).getByText('System')).toBeTruthy();
    expect(within(items[2] as HTMLElement).getByText('5 Jan 2026')).toBeTruthy();
    expect(within(items[3] as HTMLElement).queryByText('Info')).toBeNull();
    expect(within(items[3] as HTMLElement).getByText('Acme plan › Market size')).toBeTruthy();
    expect(
      within(items[3] as HTMLElement)
        .getByText('just now')
        .getAttribute('dateTime'),
    ).toBe(new Date(Date.parse(minutesAgo(0.2))).toISOString());
    expect(app.clock.pending).toBe(0);
  });

  it('AC4: labels are shown as text, never as markup', () => {
    const hostile = {
      ...(activityFixture() as unknown as Activity),
      severity: 'info',
      actor: { first_name: '', username: 'ada' },
      actor_label: '  ',
      message: '',
      verb: 'renamed',
      target_label: '<script>alert(1)</script>',
      child_target_label: null,
    } satisfies Activity;
    expect(activityEntryView(hostile)).toMatchObject({
      actor: 'ada',
      text: 'renamed <script>alert(1)</script>',
      target: null,
    });
  });
});
