import { Link, useLocation } from 'react-router';

/** Any route the app does not know. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <>
      <title>Page not found · Planwright</title>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="mt-4 text-3xl font-bold">Page not found</h1>
        <p className="mt-4 opacity-80">
          There is no page at <code className="break-all rounded bg-base-200 px-1">{pathname}</code>. It may
          have moved, or the link may be mistyped.
        </p>
        <Link to="/" className="btn btn-primary mt-8">
          Go to the home page
        </Link>
      </section>
    </>
  );
}
