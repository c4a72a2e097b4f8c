import type { DocumentVersion } from '@planwright/sdk';
import type { SectionDiff, SubsectionDiff, WordChange } from '@planwright/sdk/formats';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { versionDiffQuery } from './version-queries';
import { VERSION_TEXTS as TEXTS } from './version-texts';

function notesOf(part: SectionDiff | SubsectionDiff): string[] {
  const notes: string[] = [];
  if (part.renamed && part.title.from !== null) notes.push(TEXTS.renamedFrom(part.title.from));
  if (part.moved) notes.push(TEXTS.moved);
  if ('finalized' in part && part.finalized.from !== null && part.finalized.to !== null) {
    if (!part.finalized.from && part.finalized.to) notes.push(TEXTS.finalized);
    if (part.finalized.from && !part.finalized.to) notes.push(TEXTS.reopened);
  }
  return notes;
}

/** Word runs inline: additions underlined in green, removals struck through in red, each named for screen readers. */
function Words({ words }: { words: readonly WordChange[] }) {
  return (
    <p className="whitespace-pre-wrap [overflow-wrap:anywhere]" dir="auto">
      {words.map((run, index) =>
        run.kind === 'added' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs have no identity but their place.
          <ins key={index} className="bg-success/15 text-success-content underline decoration-success">
            <span className="sr-only">{TEXTS.addedText} </span>
            {run.text}
          </ins>
        ) : run.kind === 'removed' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs have no identity but their place.
          <del key={index} className="bg-error/15 line-through decoration-error">
            <span className="sr-only">{TEXTS.removedText} </span>
            {run.text}
          </del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs have no identity but their place.
          <span key={index}>{run.text}</span>
        ),
      )}
    </p>
  );
}

function Part({ level, part }: { level: 'section' | 'subsection'; part: SectionDiff | SubsectionDiff }) {
  const Heading = level === 'section' ? 'h4' : 'h5';
  const notes = notesOf(part);
  return (
    <div className={`flex flex-col gap-1 ${level === 'subsection' ? 'pl-3' : ''}`}>
      <Heading
        className={`${level === 'section' ? 'font-semibold' : 'font-medium'} [overflow-wrap:anywhere]`}
        dir="auto"
      >
        {part.title.to ?? part.title.from}
        {part.status === 'added' && <span className="badge badge-success badge-sm ml-2">{TEXTS.added}</span>}
        {part.status === 'removed' && (
          <span className="badge badge-error badge-sm ml-2">{TEXTS.removed}</span>
        )}
      </Heading>
      {notes.length > 0 && <p className="text-sm italic opacity-80">{notes.join(' ')}</p>}
      {part.words && <Words words={part.words} />}
    </div>
  );
}

/**
 * What changed from a version to the plan as it is now (docs/versions.md "Comparing"): only the changed sections
 * and subsections, what happened to each, and their text word by word (never HTML from the plan: text nodes).
 */
export function VersionCompare({
  uuid,
  version,
  label,
  onBack,
  backLabel,
}: {
  uuid: string;
  version: DocumentVersion;
  label: string;
  onBack: () => void;
  backLabel: string;
}) {
  const client = usePlanwrightClient();
  const diff = useQuery(versionDiffQuery(client, uuid, version.id));
  const headingId = useId();
  let body: ReactNode;
  if (diff.data) {
    const changed = diff.data.sections.filter((section) => section.status !== 'unchanged');
    const { changed: c, added, removed } = diff.data.summary;
    body =
      changed.length === 0 ? (
        <p className="text-sm">{TEXTS.nothingChanged}</p>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm opacity-80">{TEXTS.summary(c, added, removed)}</p>
          {changed.map((section) => (
            <div key={section.uuid} className="flex flex-col gap-2">
              <Part level="section" part={section} />
              {section.subsections
                .filter((subsection) => subsection.status !== 'unchanged')
                .map((subsection) => (
                  <Part key={subsection.uuid} level="subsection" part={subsection} />
                ))}
            </div>
          ))}
        </div>
      );
  } else if (diff.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void diff.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.comparisonLoading}</LoadingStatus>;
  }
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="min-w-0 flex-1 font-semibold [overflow-wrap:anywhere]" dir="auto">
          {TEXTS.comparing(label)}
        </h3>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onBack}>
          {backLabel}
        </button>
      </div>
      {body}
    </section>
  );
}
