import { Link } from 'react-router';

/** Company story (spec 000 §1): began in a venture studio; plans are reviewed by an advisory board. */
export function AboutPage() {
  return (
    <>
      <title>About · Planwright</title>
      <article className="mx-auto max-w-3xl px-4 py-16">
        <h1 className="text-4xl font-bold">About Planwright</h1>
        <p className="mt-6 text-lg opacity-80">
          Planwright began in a venture studio. Week after week we watched founders lose months to their first
          business plan: a blank document, a template nobody explained, numbers pieced together late at night.
        </p>

        <h2 className="mt-12 text-2xl font-bold">Built where plans are made</h2>
        <p className="mt-4 opacity-80">
          Inside the studio we turned what worked into blueprints: sections and subsections that say what a
          reader needs to find, with guidance for each. We added an AI assistant that keeps the whole plan in
          view, so a change to the market section is reflected in the financials and the pitch. What used to
          take a quarter started to take days.
        </p>

        <h2 className="mt-12 text-2xl font-bold">Reviewed by people who read plans</h2>
        <p className="mt-4 opacity-80">
          Our plans are reviewed by an advisory board of founders, operators and investors. Their questions
          shape our blueprints and the red-flag checks that run on every plan, so the gaps they would spot are
          caught before a plan reaches them.
        </p>

        <h2 className="mt-12 text-2xl font-bold">Who we build for</h2>
        <p className="mt-4 opacity-80">
          Founders and startup teams writing their first plan or their fifth, universities and venture studios
          teaching many teams at once, and investors who want plans that are complete, consistent and easy to
          compare.
        </p>

        <div className="mt-12 flex flex-wrap gap-4">
          <Link to="/account/signin" className="btn btn-primary">
            Get started
          </Link>
          <Link to="/contact" className="btn btn-ghost">
            Talk to us
          </Link>
        </div>
      </article>
    </>
  );
}
