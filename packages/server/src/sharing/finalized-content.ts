import type { DocumentJson, SectionJson } from '@planwright/sdk/model';

/**
 * What a "latest finalized" share link shows of a plan (docs/versions.md "Share links"): only its finalized
 * subsections. A section keeps its heading and opening text when at least one of its subsections is finalized,
 * and is left out when none is; a section without subsections has nothing to finalize and is shown whole.
 */
export function finalizedContent(content: DocumentJson): DocumentJson {
  const sections: SectionJson[] = [];
  for (const section of content.content) {
    const subsections = section.content.filter((node) => node.type === 'subsection');
    if (subsections.length === 0) {
      sections.push(section);
      continue;
    }
    if (!subsections.some((subsection) => subsection.attrs.finalized)) continue;
    const [heading, ...rest] = section.content;
    sections.push({
      ...section,
      content: [heading, ...rest.filter((node) => node.type !== 'subsection' || node.attrs.finalized)],
    });
  }
  return { type: 'doc', content: sections };
}
