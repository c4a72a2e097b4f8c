import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/**
 * What a page shows when its code or data could not be loaded (most often a stale tab after a deploy:
 * the old chunk names are gone), instead of react-router's developer screen.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Something went wrong · Planwright</title>
      <h1 className="text-3xl font-bold">This page could not be loaded</h1>
      <p className="mt-4 opacity-80">
        Reloading usually fixes it. If it keeps happening, please let us know.
        {detail && <span className="mt-2 block text-sm">{detail}</span>}
      </p>
      <div className="mt-8 flex gap-4">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="btn btn-ghost">
          Go to the home page
        </Link>
      </div>
    </section>
  );
}
