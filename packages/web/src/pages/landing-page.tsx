import { Link } from 'react-router';

const SIGN_IN = '/account/signin';

interface Feature {
  title: string;
  text: string;
}

const FOUNDER_FEATURES: readonly Feature[] = [
  {
    title: 'Drafted in days',
    text: 'Go from a blank page to a complete first draft of your plan in days, not months.',
  },
  {
    title: 'Guided templates',
    text: 'Blueprints lay out every section and subsection, with hints on what each one needs to say.',
  },
  {
    title: 'Data pulled in for you',
    text: 'Market and financial data is pulled in automatically, so your numbers start from evidence.',
  },
  {
    title: 'The whole plan in scope',
    text: 'A context engine keeps your entire plan in view for every prompt, so each section agrees with the rest.',
  },
  {
    title: 'Write together',
    text: 'Invite your team, mentors and advisors to comment, with changes showing up in real time.',
  },
  {
    title: 'Ready to send',
    text: 'Export a polished PDF, finished with a product footer, when the plan is ready for readers.',
  },
];

const INVESTOR_FEATURES: readonly Feature[] = [
  {
    title: 'Red flags, checked',
    text: 'Automated red-flag checks point out gaps and inconsistencies before you spend time on a plan.',
  },
  {
    title: 'A structure you know',
    text: 'Plans built from shared blueprints follow the same sections, so you can compare them side by side.',
  },
  {
    title: 'Numbers with sources',
    text: 'Market and financial figures are drawn from data, not guesswork, and sit next to the claims they support.',
  },
  {
    title: 'Feedback in place',
    text: 'Comment directly on the sections you read and follow the founders’ answers as they come in.',
  },
];

/** Home (spec 000 §2): hero, features for founders and for investors, two Get started buttons. */
export function LandingPage() {
  return (
    <>
      <title>Planwright: business plans with AI help</title>
      <section className="hero bg-base-200 py-16 sm:py-24" aria-labelledby="hero-title">
        <div className="hero-content max-w-3xl text-center">
          <div>
            <p className="mb-4 font-semibold uppercase tracking-widest text-primary text-sm">
              AI-assisted business plans
            </p>
            <h1 id="hero-title" className="text-4xl font-bold leading-tight sm:text-5xl">
              Write the business plan investors want to read
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg opacity-80">
              Planwright helps founders, startup teams, universities and venture studios draft structured
              plans in days, with an AI assistant that knows every section, and helps investors read them with
              confidence.
            </p>
            <Link to={SIGN_IN} className="btn btn-primary btn-lg mt-8">
              Get started
            </Link>
          </div>
        </div>
      </section>

      <FeatureSection
        id="founders"
        title="For Founders"
        lead="Everything you need to turn an idea into a plan you can send."
        features={FOUNDER_FEATURES}
      />
      <FeatureSection
        id="investors"
        title="For Investors"
        lead="Read plans that are complete, consistent and checked."
        features={INVESTOR_FEATURES}
        tinted
      />

      <section className="px-4 py-16 text-center" aria-labelledby="cta-title">
        <h2 id="cta-title" className="text-3xl font-bold">
          Start your plan today
        </h2>
        <p className="mx-auto mt-4 max-w-xl opacity-80">
          Pick a blueprint, answer the guided prompts and let the assistant help with the rest.
        </p>
        <Link to={SIGN_IN} className="btn btn-primary btn-lg mt-8">
          Get started
        </Link>
      </section>
    </>
  );
}

function FeatureSection(props: {
  id: string;
  title: string;
  lead: string;
  features: readonly Feature[];
  tinted?: boolean;
}) {
  const headingId = `${props.id}-title`;
  return (
    <section
      id={props.id}
      aria-labelledby={headingId}
      className={`py-16 ${props.tinted ? 'bg-base-200' : ''}`}
    >
      <div className="mx-auto max-w-6xl px-4">
        <h2 id={headingId} className="text-3xl font-bold">
          {props.title}
        </h2>
        <p className="mt-2 text-lg opacity-80">{props.lead}</p>
        <ul
          className={`mt-8 grid gap-6 sm:grid-cols-2 ${props.features.length % 3 === 0 ? 'lg:grid-cols-3' : 'lg:grid-cols-4'}`}
        >
          {props.features.map((feature) => (
            <li key={feature.title} className="card border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body">
                <h3 className="card-title text-lg">{feature.title}</h3>
                <p className="opacity-80">{feature.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
