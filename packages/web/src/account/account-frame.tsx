import { type ReactNode, useEffect, useRef } from 'react';

interface AccountFrameProps {
  /** The card's heading, also the document title. */
  title: string;
  intro?: ReactNode;
  /** Under the card: links to the neighbouring pages. */
  footer?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of every account page: one centred card. When the heading changes (the form gives way to
 * "Check your email", say) the focus moves to it, so screen readers announce the new screen.
 */
export function AccountFrame({ title, intro, footer, children }: AccountFrameProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstTitle = useRef(title);
  useEffect(() => {
    if (title !== firstTitle.current) headingRef.current?.focus();
  }, [title]);
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16" aria-labelledby="account-title">
      <title>{`${title} · Planwright`}</title>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5">
          <header className="grid gap-2">
            <h1
              id="account-title"
              ref={headingRef}
              tabIndex={-1}
              className="text-2xl font-bold focus:outline-none"
            >
              {title}
            </h1>
            {intro && <p className="opacity-80">{intro}</p>}
          </header>
          {children}
        </div>
      </div>
      {footer && <p className="mt-6 text-center text-sm">{footer}</p>}
    </section>
  );
}

/** A centred spinner with its text, for the pages that work on arrival. */
export function Working({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-3">
      <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
