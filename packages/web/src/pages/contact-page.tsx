import { CONTACT_DETAILS } from '../contact/contact-details';
import { ContactForm } from '../contact/contact-form';

/** Contact (spec 000 §2): the form, static contact details, Support and Sales cards. */
export function ContactPage() {
  return (
    <>
      <title>Contact · Planwright</title>
      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="contact-title">
        <header className="max-w-2xl">
          <h1 id="contact-title" className="text-4xl font-bold">
            Contact us
          </h1>
          <p className="mt-4 text-lg opacity-80">
            Questions about Planwright, your plan or your account? Send us a message and we will get back to
            you.
          </p>
        </header>

        <div className="mt-12 grid gap-8 lg:grid-cols-5">
          <div className="card border border-base-300 bg-base-100 shadow-sm lg:col-span-3">
            <div className="card-body">
              <ContactForm />
            </div>
          </div>

          <div className="grid content-start gap-6 lg:col-span-2">
            <address className="card bg-base-200 not-italic">
              <div className="card-body">
                <h2 className="card-title">Contact details</h2>
                <dl className="grid gap-2 text-sm">
                  <div>
                    <dt className="font-medium">Email</dt>
                    <dd>
                      <a className="link" href={`mailto:${CONTACT_DETAILS.email}`}>
                        {CONTACT_DETAILS.email}
                      </a>
                    </dd>
                  </div>
                  <div>
                    <dt className="font-medium">Office hours</dt>
                    <dd>{CONTACT_DETAILS.officeHours}</dd>
                  </div>
                </dl>
                <p className="text-sm opacity-80">{CONTACT_DETAILS.responseTime}</p>
              </div>
            </address>

            <section className="card bg-base-200" aria-labelledby="support-title">
              <div className="card-body">
                <h2 id="support-title" className="card-title">
                  Support
                </h2>
                <p className="text-sm opacity-80">
                  Help with your account, your plans or the editor: our help center has guides and answers.
                </p>
                <div className="card-actions">
                  {/* Spec 000 §2: this button does nothing yet. */}
                  <button type="button" className="btn btn-outline btn-sm">
                    Visit Help Center
                  </button>
                </div>
              </div>
            </section>

            <section className="card bg-base-200" aria-labelledby="sales-title">
              <div className="card-body">
                <h2 id="sales-title" className="card-title">
                  Sales
                </h2>
                <p className="text-sm opacity-80">
                  Planwright for a studio, an accelerator or a university? See it with your own blueprints.
                </p>
                <div className="card-actions">
                  {/* Spec 000 §2: this button does nothing yet. */}
                  <button type="button" className="btn btn-primary btn-sm">
                    Schedule a Demo
                  </button>
                </div>
              </div>
            </section>
          </div>
        </div>
      </section>
    </>
  );
}
