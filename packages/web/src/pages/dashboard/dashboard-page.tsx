import { Link } from 'react-router';
import { SIGNED_IN_TEXTS as TEXTS } from '../../account/account-texts';
import { useSession } from '../../account/use-account';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';

const BREADCRUMBS: readonly BreadcrumbItem[] = [{ label: TEXTS.dashboard }];

/** `/dashboard`: the signed-in home. Its tiles (spec 000 §2) come with the documents and blueprints. */
export function DashboardPage() {
  useBreadcrumbs(BREADCRUMBS);
  const session = useSession();
  const name = session.name ?? session.email;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="dashboard-title">
      <title>Dashboard · Planwright</title>
      <h1 id="dashboard-title" className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">
        {name ? TEXTS.welcome(name) : TEXTS.welcomeAnonymous}
      </h1>
      <p className="mt-2 opacity-80">{TEXTS.dashboardIntro}</p>
      <Link to="/dashboard/profile" className="btn btn-primary mt-6">
        {TEXTS.editProfile}
      </Link>
    </section>
  );
}
