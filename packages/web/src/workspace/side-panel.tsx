import { type ReactNode, useId } from 'react';

/**
 * The right-hand panel of a workspace (the chat's place, the blueprint's settings): a region named by its
 * heading, with a header (heading and any line under it) over a body that scrolls on its own.
 */
export function SidePanel({
  heading,
  header,
  bodyClassName,
  children,
}: {
  heading: string;
  /** Shown under the heading (the chat's context line). */
  header?: ReactNode;
  bodyClassName: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex h-full min-w-0 flex-col bg-base-100">
      <div className="border-b border-base-300 px-4 py-3">
        <h2 id={headingId} className="font-semibold">
          {heading}
        </h2>
        {header}
      </div>
      <div className={`min-h-0 flex-1 ${bodyClassName}`}>{children}</div>
    </section>
  );
}
