import { usernameOf } from '../auth/username.js';
import type { BlueprintRecord } from '../storage/blueprint-repository.js';
import type { SectionRow } from '../structure/section-rows.js';
import { sectionView } from '../structure/section-view.js';

/**
 * A blueprint as answered (`docs/http-api.md` "Blueprints"), for a viewer (`viewerId`, undefined when
 * anonymous). `allowed_orgs` is the owner's business: others see `[]`. Lists leave `content` out.
 */
export function blueprintView(
  bp: BlueprintRecord,
  sections: readonly SectionRow[],
  viewerId: string | undefined,
  options: { content: boolean },
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
    allowed_orgs: isOwner ? bp.allowedOrgIds : [],
    published_at: bp.publishedAt?.toISOString() ?? null,
    system_prompt: bp.systemPrompt,
    revision: bp.revision,
    ...(options.content ? { content: bp.content } : {}),
    sections: sections.map((section) => sectionView(section, 'blueprint')),
    sections_count: sections.length,
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
