import type { SiteConfig } from '@planwright/sdk';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TERMS_PATH, useSiteConfig } from '../site/site-config';
import { Alert } from '../ui/alert';

/** When the texts below last changed; shown on both pages. */
const LAST_UPDATED = '28 November 2026';

type Company = SiteConfig['company'];

/** Terms and Conditions (linked from sign-up, which requires agreeing to them). */
export function TermsPage() {
  return (
    <LegalPage
      title="Terms and Conditions"
      externalText="The terms and conditions of this service are published at"
      externalKey="terms_url"
      body={(company) => <TermsText company={company} />}
    />
  );
}

/** Privacy notice. */
export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      externalText="The privacy policy of this service is published at"
      externalKey="privacy_url"
      body={(company) => <PrivacyText company={company} />}
    />
  );
}

/**
 * A legal page: the built-in text with the operator's details from the server, or, when the server names
 * another address for it (TERMS_URL, PRIVACY_URL), a link there. While the details load, or if they cannot,
 * the text still shows, naming the operator generically: a visitor always gets the terms.
 */
function LegalPage({
  title,
  externalText,
  externalKey,
  body,
}: {
  title: string;
  externalText: string;
  externalKey: 'terms_url' | 'privacy_url';
  body: (company: Company) => ReactNode;
}) {
  const config = useSiteConfig();
  const external = config.data?.legal[externalKey];
  const company: Company = config.data?.company ?? {
    name: 'the operator of this Planwright server',
    email: '',
    address: null,
    jurisdiction: null,
    configured: false,
  };
  return (
    <>
      <title>{`${title} · Planwright`}</title>
      <article className="mx-auto max-w-3xl px-4 py-16" aria-labelledby="legal-title">
        <h1 id="legal-title" className="text-4xl font-bold">
          {title}
        </h1>
        {external ? (
          <p className="mt-6 text-lg">
            {externalText}{' '}
            <a href={external} className="link link-primary break-all">
              {external}
            </a>
            .
          </p>
        ) : (
          <>
            <p className="mt-2 text-sm opacity-80">Last updated: {LAST_UPDATED}</p>
            {config.isSuccess && !company.configured && (
              <div className="mt-6">
                <Alert kind="info">
                  The operator of this server has not entered its company details yet, so this page names them
                  in general terms.
                </Alert>
              </div>
            )}
            <div className="mt-8 space-y-4 leading-relaxed [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_li]:ml-6 [&_li]:list-disc">
              {body(company)}
            </div>
            <OperatorDetails company={company} />
          </>
        )}
      </article>
    </>
  );
}

function OperatorDetails({ company }: { company: Company }) {
  return (
    <section className="mt-12 rounded-box bg-base-200 p-6" aria-labelledby="operator-title">
      <h2 id="operator-title" className="text-xl font-bold">
        Who runs this service
      </h2>
      <dl className="mt-4 grid gap-2 sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        <dt className="font-semibold">Operator</dt>
        <dd>{capitalised(company.name)}</dd>
        {company.address && (
          <>
            <dt className="font-semibold">Address</dt>
            <dd className="whitespace-pre-line">{company.address}</dd>
          </>
        )}
        {company.email && (
          <>
            <dt className="font-semibold">Contact</dt>
            <dd>
              <a href={`mailto:${company.email}`} className="link link-primary">
                {company.email}
              </a>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function contactSentence(company: Company): ReactNode {
  return company.email ? (
    <>
      write to{' '}
      <a href={`mailto:${company.email}`} className="link link-primary">
        {company.email}
      </a>{' '}
      or use the{' '}
      <Link to="/contact" className="link link-primary">
        contact form
      </Link>
    </>
  ) : (
    <>
      use the{' '}
      <Link to="/contact" className="link link-primary">
        contact form
      </Link>
    </>
  );
}

function TermsText({ company }: { company: Company }) {
  const law = company.jurisdiction ?? 'the country where the operator is established';
  return (
    <>
      <p>
        These terms govern your use of this Planwright service, which is provided by {company.name} (“we”,
        “us”). By creating an account you agree to them. If you do not agree, do not use the service.
      </p>
      <h2>The service</h2>
      <p>
        Planwright helps you write business plans: an editor organised in sections and subsections, blueprints
        that structure a plan, an AI assistant that drafts and revises text on request, and import and export
        in common formats. We may change or improve the service; we will tell you in advance of changes that
        take away something you rely on.
      </p>
      <h2>Your account</h2>
      <ul>
        <li>You give a valid e-mail address and keep your password to yourself.</li>
        <li>
          You are responsible for what happens under your account, and tell us at once if it is misused.
        </li>
        <li>You must be old enough to enter a contract where you live.</li>
      </ul>
      <h2>Your content</h2>
      <p>
        The plans, blueprints and files you create or upload remain yours. You give us only the permission
        needed to store, process and show them to you and to the people you share them with, and to send the
        text you choose to the AI model that answers your requests. You can export your plans at any time, and
        delete them or your account.
      </p>
      <h2>The AI assistant</h2>
      <p>
        Suggestions from the AI assistant are drafts. They can be wrong or incomplete, and they are not legal,
        financial or investment advice. You decide what goes into your plan and remain responsible for it;
        check figures and claims before you rely on them or share them.
      </p>
      <h2>Acceptable use</h2>
      <ul>
        <li>No unlawful content, and nothing that infringes another person's rights.</li>
        <li>No attempts to break, overload or get around the security of the service.</li>
        <li>No automated use that places an unreasonable load on it.</li>
      </ul>
      <p>We may suspend an account that breaks these rules, and will tell you why.</p>
      <h2>Plans and payment</h2>
      <p>
        Paid plans, their prices and what they include are shown on the{' '}
        <Link to="/pricing" className="link link-primary">
          pricing page
        </Link>
        . A subscription renews until you cancel it; cancelling stops the next renewal.
      </p>
      <h2>Liability</h2>
      <p>
        We provide the service with reasonable care and skill, but cannot promise that it is always available
        or free of errors. As far as the law allows, we are not liable for indirect losses or for decisions
        taken on the basis of a plan. Nothing in these terms limits liability that cannot be limited by law.
      </p>
      <h2>Ending the agreement</h2>
      <p>
        You can close your account at any time. We may end the service with reasonable notice, and will give
        you the chance to export your plans first.
      </p>
      <h2>Law and contact</h2>
      <p>
        These terms are governed by the laws of {law}. For questions about them, {contactSentence(company)}.
      </p>
    </>
  );
}

function PrivacyText({ company }: { company: Company }) {
  return (
    <>
      <p>
        This notice explains what personal data this Planwright service collects, why, and your rights. The
        controller of that data is {company.name}.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          Account data: your e-mail address, your name and picture if you give them, and your password (stored
          only as a salted hash).
        </li>
        <li>Your content: the plans, blueprints, chats and files you create or upload.</li>
        <li>
          Technical data: session records (when and from which address and browser you signed in) and server
          logs, kept for security.
        </li>
        <li>Messages you send through the contact form.</li>
      </ul>
      <h2>Why we use it</h2>
      <ul>
        <li>
          To provide the service you signed up for: storing and showing your plans, signing you in, sending
          the e-mails the service needs (verification, password reset).
        </li>
        <li>To keep the service secure and working, and to answer your messages.</li>
      </ul>
      <p>We do not sell your data and do not use it for advertising.</p>
      <h2>The AI assistant</h2>
      <p>
        When you ask the AI assistant for something, the text it needs (the relevant parts of your plan and
        your request) is sent to the AI model this server is configured to use, which may be run by a third
        party under its own terms. Nothing is sent to an AI model unless you ask for an answer.
      </p>
      <h2>Cookies and storage</h2>
      <p>
        The web app keeps your session and your theme choice in your browser. It uses no tracking or
        advertising cookies. The pricing page may load a payment provider's table, which sets its own cookies.
      </p>
      <h2>How long we keep it</h2>
      <p>
        As long as your account exists. When you delete a plan or your account, its data is removed from the
        service; backups are overwritten in the ordinary course.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and correct your profile, and export or delete your plans, in the app; for anything else,
        closing your account included, contact us. Depending on where you live you may also have the right to
        object to processing or to complain to a data protection authority. To exercise your rights,{' '}
        {contactSentence(company)}.
      </p>
      <h2>Changes</h2>
      <p>
        If we change this notice we will update the date at the top, and tell you of significant changes. See
        also our{' '}
        <Link to={TERMS_PATH} className="link link-primary">
          Terms and Conditions
        </Link>
        .
      </p>
    </>
  );
}
