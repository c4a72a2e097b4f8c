import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A detail page's header: the title (any script, wrapped anywhere) with what the kind shows under it, and
 * for whoever may change the item, Edit and the actions menu.
 */
export function DetailHeader({
  title,
  edit,
  menu,
  children,
}: {
  title: string;
  /** The link to the editor (Edit, or View for a reader); left out, neither it nor the menu shows. */
  edit?: { to: string; label: string } | undefined;
  menu?: ReactNode;
  /** Under the title: badges, publisher, description. */
  children: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <h1 dir="auto" className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">
          {title}
        </h1>
        {children}
      </div>
      {edit && (
        <div className="flex items-center gap-2">
          <Link to={edit.to} className="btn btn-primary">
            {edit.label}
          </Link>
          {menu}
        </div>
      )}
    </header>
  );
}
