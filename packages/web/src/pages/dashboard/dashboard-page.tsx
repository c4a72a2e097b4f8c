import { ACTIVITY_LEVELS } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SIGNED_IN_TEXTS as TEXTS } from '../../account/account-texts';
import { useSession } from '../../account/use-account';
import { ActivityList } from '../../activity/activity-list';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { BLUEPRINTS_PATH } from '../../blueprints/blueprint-paths';
import { recentBlueprintsQuery } from '../../blueprints/blueprint-queries';
import { DOCUMENTS_PATH } from '../../documents/document-paths';
import { documentListQuery } from '../../documents/document-queries';
import { documentStats } from '../../documents/document-stats';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { teamQuery } from '../../organizations/organization-queries';
import { useBrowserPorts } from '../../platform/browser-ports-context';
import { InvitationsNotice } from '../../sharing/invitations-notice';

const BREADCRUMBS: readonly BreadcrumbItem[] = [{ label: TEXTS.dashboard }];

/** The dashboard's own words. */
export const DASHBOARD_TEXTS = {
  documents: 'Documents',
  viewDocuments: 'View Documents',
  newThisWeek: (count: number) => `${count} new this week`,
  blueprints: 'Blueprints',
  viewBlueprints: 'View Blueprints',
  blueprintsDetail: 'Yours to reuse and publish',
  completed: 'Completed',
  completedDetail: (percent: number) => `subsections finalized · ${percent}% average progress`,
  teamMembers: 'Team Members',
  /** Spec 000 §2: Team Members is shown as `?` (teams are not built yet). */
  teamDetail: 'People you share plans with',
  viewTeam: 'View team',
  loadingValue: 'Loading',
  unavailable: 'Could not be loaded',
} as const;

/**
 * The newest documents the figures are taken from: the server's largest page. Beyond it the figures describe
 * the 100 changed most recently (the count itself is always the server's total).
 */
const STATS_QUERY = { pageSize: 100, ordering: '-updated_at' } as const;

/**
 * `/dashboard` (spec 000 §2; SPEC.md DS1–DS2): the welcome, tiles for Documents, Blueprints, Completed and
 * Team Members, and Recent Activity at level 1.
 */
export function DashboardPage() {
  useBreadcrumbs(BREADCRUMBS);
  const session = useSession();
  const client = usePlanwrightClient();
  const { clock } = useBrowserPorts();
  const documents = useQuery(documentListQuery(client, STATS_QUERY));
  const blueprints = useQuery(recentBlueprintsQuery(client));
  const team = useQuery(teamQuery(client));
  const name = session.name ?? session.email;
  const stats = documents.data ? documentStats(documents.data.items, clock.now()) : null;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="dashboard-title">
      <title>Dashboard · Planwright</title>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 id="dashboard-title" className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">
            {name ? TEXTS.welcome(name) : TEXTS.welcomeAnonymous}
          </h1>
          <p className="mt-2 opacity-80">{TEXTS.dashboardIntro}</p>
        </div>
        <Link to="/dashboard/profile" className="btn btn-ghost btn-sm">
          {TEXTS.editProfile}
        </Link>
      </header>

      <div className="mt-8">
        <InvitationsNotice />
      </div>

      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Tile
          title={DASHBOARD_TEXTS.documents}
          value={documents.data ? String(documents.data.total) : null}
          failed={documents.isError && !documents.data}
          detail={stats ? DASHBOARD_TEXTS.newThisWeek(stats.newThisWeek) : null}
          action={
            <Link to={DOCUMENTS_PATH} className="btn btn-primary btn-sm">
              {DASHBOARD_TEXTS.viewDocuments}
            </Link>
          }
        />
        <Tile
          title={DASHBOARD_TEXTS.blueprints}
          value={blueprints.data ? String(blueprints.data.total) : null}
          failed={blueprints.isError && !blueprints.data}
          detail={DASHBOARD_TEXTS.blueprintsDetail}
          action={
            <Link to={BLUEPRINTS_PATH} className="btn btn-sm">
              {DASHBOARD_TEXTS.viewBlueprints}
            </Link>
          }
        />
        <Tile
          title={DASHBOARD_TEXTS.completed}
          value={stats ? `${stats.finalized}/${stats.total}` : null}
          failed={documents.isError && !documents.data}
          detail={stats ? DASHBOARD_TEXTS.completedDetail(stats.averagePercent) : null}
        />
        <Tile
          title={DASHBOARD_TEXTS.teamMembers}
          value={team.data ? String(team.data.total) : null}
          failed={team.isError && !team.data}
          detail={DASHBOARD_TEXTS.teamDetail}
          action={
            <Link to="/dashboard/team" className="btn btn-sm">
              {DASHBOARD_TEXTS.viewTeam}
            </Link>
          }
        />
      </ul>

      <div className="mt-8">
        <ActivityList query={ACTIVITY_LEVELS.dashboard} />
      </div>
    </section>
  );
}

/** One stat tile: its value (a spinner while loading, a dash when it failed), a line under it, an action. */
function Tile({
  title,
  value,
  failed,
  detail,
  action,
}: {
  title: string;
  value: string | null;
  failed: boolean;
  detail: string | null;
  action?: ReactNode;
}) {
  let shown: ReactNode = value;
  if (value === null && failed) {
    shown = (
      <>
        <span aria-hidden="true">–</span>
        <span className="sr-only">{DASHBOARD_TEXTS.unavailable}</span>
      </>
    );
  } else if (value === null) {
    shown = (
      <>
        <span className="loading loading-dots loading-md" aria-hidden="true" />
        <span className="sr-only">{DASHBOARD_TEXTS.loadingValue}</span>
      </>
    );
  }
  return (
    <li className="stats border border-base-300 bg-base-100 shadow-sm">
      <div className="stat">
        <div className="stat-title">{title}</div>
        <div className="stat-value">{shown}</div>
        <div className="stat-desc whitespace-normal">{failed ? DASHBOARD_TEXTS.unavailable : detail}</div>
        {action && <div className="stat-actions">{action}</div>}
      </div>
    </li>
  );
}
