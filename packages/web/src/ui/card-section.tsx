import { type ReactNode, useId } from 'react';

/** A card that is a region named by its heading (Description, Marketplace, Sales…). */
export function CardSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-3">
        <h2 id={headingId} className="card-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
