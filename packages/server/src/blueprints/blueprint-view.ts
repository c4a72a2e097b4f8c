import { usernameOf } from '../auth/username.js';
import type { BlueprintHead, BlueprintRecord } from '../storage/blueprint-repository.js';
import type { SectionOutlineRow, SectionRow } from '../structure/section-rows.js';
import { sectionOutlineView, sectionView } from '../structure/section-view.js';

/**
 * A blueprint as answered (`docs/http-api.md` "Blueprints"), for a viewer (`viewerId`, undefined when
 * anonymous), around its `content` (left out of lists) and `sections`. `allowed_orgs` is the owner's
 * business: others see only those of them they belong to (`viewerOrganizationIds`; `[]` without).
 */
function blueprintAnswer<S>(
  bp: BlueprintHead,
  viewerId: string | undefined,
  parts: { content?: unknown; sections: S[] },
  viewerOrganizationIds: readonly string[] = [],
) {
  const isOwner = viewerId !== undefined && bp.ownerId === viewerId;
  const username = bp.owner ? usernameOf(bp.owner.email) : null;
  return {
    uuid: bp.id,
    id: bp.id,
    title: bp.title,
    name: bp.title,
    description: bp.description,
    status: bp.status,
    version: bp.version,
    visibility: bp.visibility,
    allowed_orgs: isOwner
      ? bp.allowedOrgIds
      : bp.allowedOrgIds.filter((id) => viewerOrganizationIds.includes(id)),
    published_at: bp.publishedAt?.toISOString() ?? null,
    system_prompt: bp.systemPrompt,
    revision: bp.revision,
    ...parts,
    sections_count: parts.sections.length,
    user:
      bp.owner && username !== null
        ? { username, first_name: bp.owner.firstName, last_name: bp.owner.lastName }
        : null,
    owner: username !== null ? { username } : null,
    publisher: bp.publisher,
    is_owner: isOwner,
    is_default: bp.isDefault,
    created_at: bp.createdAt.toISOString(),
    updated_at: bp.updatedAt.toISOString(),
  };
}

/** A blueprint with its content tree, and its sections with their settings. */
export function blueprintView(
  bp: BlueprintRecord,
  sections: readonly SectionRow[],
  viewerId: string | undefined,
  viewerOrganizationIds?: readonly string[],
) {
  return blueprintAnswer(
    bp,
    viewerId,
    { content: bp.content, sections: sections.map((section) => sectionView(section, 'blueprint')) },
    viewerOrganizationIds,
  );
}

/** A blueprint as lists answer it: no `content`, and its sections as an outline without settings. */
export function blueprintListItemView(
  bp: BlueprintHead,
  outline: readonly SectionOutlineRow[],
  viewerId: string | undefined,
) {
  return blueprintAnswer(bp, viewerId, {
    sections: outline.map((section) => sectionOutlineView(section, 'blueprint')),
  });
}
