import type { OutlineSection, OutlineSubsection } from './reconcile-sections.js';

/** What changed in a content tree, as activity feeds tell it (`docs/http-api.md` "Documents"). */
export interface StructureEvent {
  verb:
    | 'added section'
    | 'removed section'
    | 'renamed section'
    | 'added subsection'
    | 'removed subsection'
    | 'renamed subsection'
    | 'finalized'
    | 'reopened';
  /** One sentence without the actor: `added the section "Market"`. */
  message: string;
  /** The section or subsection it is about, by its title at the time. */
  childTargetLabel: string;
  childContentTypeLabel: 'section' | 'subsection';
  /** 1 for finalize and reopen (they show on the dashboard), 2 for the rest. */
  level: 1 | 2;
}

const quoted = (title: string) => JSON.stringify(title);

function subsectionsById(outline: readonly OutlineSection[]) {
  const found = new Map<string, { subsection: OutlineSubsection; section: OutlineSection }>();
  for (const section of outline) {
    for (const subsection of section.subsections) found.set(subsection.uuid, { subsection, section });
  }
  return found;
}

/**
 * The events between two outlines of the same tree, matched by uuid: sections and subsections added,
 * removed and renamed, subsections finalized and reopened. Moves record nothing; nor do the
 * subsections of a section that was itself added or removed (the section's event says it).
 */
export function structureEvents(
  before: readonly OutlineSection[],
  after: readonly OutlineSection[],
): StructureEvent[] {
  const events: StructureEvent[] = [];
  const beforeSections = new Map(before.map((section) => [section.uuid, section]));
  const afterSections = new Map(after.map((section) => [section.uuid, section]));

  for (const section of after) {
    const old = beforeSections.get(section.uuid);
    if (!old) {
      events.push({
        verb: 'added section',
        message: `added the section ${quoted(section.title)}`,
        childTargetLabel: section.title,
        childContentTypeLabel: 'section',
        level: 2,
      });
    } else if (old.title !== section.title) {
      events.push({
        verb: 'renamed section',
        message: `renamed the section ${quoted(old.title)} to ${quoted(section.title)}`,
        childTargetLabel: section.title,
        childContentTypeLabel: 'section',
        level: 2,
      });
    }
  }
  for (const section of before) {
    if (afterSections.has(section.uuid)) continue;
    events.push({
      verb: 'removed section',
      message: `removed the section ${quoted(section.title)}`,
      childTargetLabel: section.title,
      childContentTypeLabel: 'section',
      level: 2,
    });
  }

  const beforeSubsections = subsectionsById(before);
  const afterSubsections = subsectionsById(after);
  for (const [uuid, { subsection, section }] of afterSubsections) {
    const old = beforeSubsections.get(uuid)?.subsection;
    if (!old) {
      if (!beforeSections.has(section.uuid)) continue;
      events.push({
        verb: 'added subsection',
        message: `added the subsection ${quoted(subsection.title)} to ${quoted(section.title)}`,
        childTargetLabel: subsection.title,
        childContentTypeLabel: 'subsection',
        level: 2,
      });
      continue;
    }
    if (old.title !== subsection.title) {
      events.push({
        verb: 'renamed subsection',
        message: `renamed the subsection ${quoted(old.title)} to ${quoted(subsection.title)}`,
        childTargetLabel: subsection.title,
        childContentTypeLabel: 'subsection',
        level: 2,
      });
    }
    if (old.finalized !== subsection.finalized) {
      events.push({
        verb: subsection.finalized ? 'finalized' : 'reopened',
        message: `${subsection.finalized ? 'finalized' : 'reopened'} the subsection ${quoted(subsection.title)}`,
        childTargetLabel: subsection.title,
        childContentTypeLabel: 'subsection',
        level: 1,
      });
    }
  }
  for (const [uuid, { subsection, section }] of beforeSubsections) {
    if (afterSubsections.has(uuid) || !afterSections.has(section.uuid)) continue;
    events.push({
      verb: 'removed subsection',
      message: `removed the subsection ${quoted(subsection.title)} from ${quoted(section.title)}`,
      childTargetLabel: subsection.title,
      childContentTypeLabel: 'subsection',
      level: 2,
    });
  }
  return events;
}
