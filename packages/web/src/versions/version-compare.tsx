import type { DocumentVersion } from '@planwright/sdk';
import {
  EXPORT_CONTENT_TYPES,
  exportFileName,
  type SectionDiff,
  type SubsectionDiff,
  type WordChange,
} from '@planwright/sdk/formats';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { Alert } from '../ui/alert';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { shownTime } from '../ui/shown-time';
import { browserSaveFile } from '../workspace/export-download';
import { versionDiffQuery } from './version-queries';
import { VERSION_TEXTS as TEXTS, VERSION_KIND_LABELS } from './version-texts';

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

/** Which runs a side shows: inline, all of them; side by side, what was there before, or what is there after. */
type Side = 'both' | 'before' | 'after';

/** Word runs: additions underlined in green, removals struck through in red, each named for screen readers. */
function Words({ words, side }: { words: readonly WordChange[]; side: Side }) {
  const shown = words.filter(
    (run) => !(side === 'before' && run.kind === 'added') && !(side === 'after' && run.kind === 'removed'),
  );
  return (
    <p className="whitespace-pre-wrap [overflow-wrap:anywhere]" dir="auto">
      {shown.map((run, index) =>
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

function Part({
  level,
  part,
  layout,
}: {
  level: 'section' | 'subsection';
  part: SectionDiff | SubsectionDiff;
  layout: CompareLayout;
}) {
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
      {part.words &&
        (layout === 'inline' ? (
          <Words words={part.words} side="both" />
        ) : (
          <div className="grid gap-2 sm:grid-cols-2">
            <div className="rounded-box border border-base-300 p-2">
              <p className="text-xs font-semibold uppercase opacity-80">{TEXTS.before}</p>
              <Words words={part.words} side="before" />
            </div>
            <div className="rounded-box border border-base-300 p-2">
              <p className="text-xs font-semibold uppercase opacity-80">{TEXTS.after}</p>
              <Words words={part.words} side="after" />
            </div>
          </div>
        ))}
    </div>
  );
}

/** How the changes are shown: runs inline, or the text before and after side by side (stacked on a phone). */
type CompareLayout = 'inline' | 'side-by-side';

/**
 * What changed from a version to another, or to the plan as it is now (docs/versions.md "Comparing"): only the
 * changed sections and subsections, what happened to each, and their text word by word, inline or side by side
 * (never HTML from the plan: text nodes); downloaded for Word (tracked changes) or as Markdown.
 */
export function VersionCompare({
  uuid,
  title,
  version,
  versions,
  label,
  onBack,
  backLabel,
}: {
  uuid: string;
  /** The plan's title, which names the downloaded file. */
  title: string;
  version: DocumentVersion;
  /** The versions it may be compared with (besides now). */
  versions: readonly DocumentVersion[];
  label: (version: DocumentVersion) => string;
  onBack: () => void;
  backLabel: string;
}) {
  const client = usePlanwrightClient();
  const { clock } = useBrowserPorts();
  const [to, setTo] = useState('now');
  const [layout, setLayout] = useState<CompareLayout>('inline');
  const [downloadFailed, setDownloadFailed] = useState(false);
  const diff = useQuery(versionDiffQuery(client, uuid, version.id, to));
  const headingId = useId();
  const toId = useId();
  const others = versions.filter((other) => other.id !== version.id);
  const target = others.find((other) => other.id === to);
  const toLabel = target ? label(target) : 'now';

  const download = (format: 'docx' | 'md') => {
    setDownloadFailed(false);
    const query = { from: version.id, to };
    const name = `${title || 'Untitled Document'} - changes`;
    const made =
      format === 'docx'
        ? client.versions
            .diffDocx(uuid, query)
            .then((data) => ({ data, contentType: EXPORT_CONTENT_TYPES.docx }))
        : client.versions
            .diffMarkdown(uuid, query)
            .then((data) => ({ data, contentType: EXPORT_CONTENT_TYPES.md }));
    made.then(
      ({ data, contentType }) =>
        browserSaveFile(clock)({ fileName: exportFileName(name, format), contentType, data }),
      () => setDownloadFailed(true),
    );
  };

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
              <Part level="section" part={section} layout={layout} />
              {section.subsections
                .filter((subsection) => subsection.status !== 'unchanged')
                .map((subsection) => (
                  <Part key={subsection.uuid} level="subsection" part={subsection} layout={layout} />
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
          {TEXTS.comparing(label(version), toLabel)}
        </h3>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onBack}>
          {backLabel}
        </button>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-48 flex-col gap-1 text-sm">
          <label htmlFor={toId}>{TEXTS.compareWith}</label>
          <select
            id={toId}
            className="select select-sm"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          >
            <option value="now">{TEXTS.now}</option>
            {others.map((other) => (
              <option key={other.id} value={other.id}>
                {`${other.name ?? VERSION_KIND_LABELS[other.kind]} · ${shownTime(other.created_at, clock.now()).exact}`}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="flex items-center gap-1 text-sm">
          <legend className="sr-only">{TEXTS.layout}</legend>
          {(['inline', 'side-by-side'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              className={`btn btn-sm ${layout === choice ? 'btn-active' : 'btn-ghost'}`}
              aria-pressed={layout === choice}
              onClick={() => setLayout(choice)}
            >
              {choice === 'inline' ? TEXTS.inline : TEXTS.sideBySide}
            </button>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-1">
          <button
            type="button"
            className="btn btn-sm"
            title={TEXTS.downloadWordHint}
            onClick={() => download('docx')}
          >
            {TEXTS.downloadWord}
          </button>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => download('md')}>
            {TEXTS.downloadMarkdown}
          </button>
        </div>
      </div>
      {downloadFailed && <Alert kind="error">{TEXTS.downloadFailed}</Alert>}
      {body}
    </section>
  );
}
