import { randomUUID } from 'node:crypto';
import { createDocumentContent, outlineOf } from '@planwright/sdk/model';
import type { Storage } from '../storage/storage.js';
import { reconcileSections } from '../structure/reconcile-sections.js';
import type { SectionSettings } from '../structure/section-rows.js';
import { type BlueprintSeed, DEFAULT_BLUEPRINT } from './default-blueprint.js';

/**
 * Inserts the default "Business Plan" blueprint (published, public, no owner) unless it is there.
 * Idempotent, and safe when several instances start at once against one PostgreSQL: the partial
 * unique index on `is_default` lets exactly one insert win, and its rows go in the same transaction.
 * Answers whether this call seeded it.
 */
export async function seedDefaultBlueprint(
  storage: Pick<Storage, 'transaction' | 'blueprints'>,
  now: Date,
  seed: BlueprintSeed = DEFAULT_BLUEPRINT,
): Promise<boolean> {
  // The common case, every start after the first: one cheap read, no write.
  if (await storage.blueprints.findDefault()) return false;
  const settings = new Map<string, SectionSettings>();
  const settingsOf = (part: {
    developerPrompt: string;
    userHint: string;
    toolMode: SectionSettings['toolMode'];
  }) => ({
    developerPrompt: part.developerPrompt,
    userHint: part.userHint,
    toolMode: part.toolMode,
    mcpUrl: '',
  });
  const sections = seed.sections.map((section) => {
    const uuid = randomUUID();
    settings.set(uuid, settingsOf(section));
    return {
      uuid,
      title: section.title,
      subsections: section.subsections.map((subsection) => {
        const subsectionUuid = randomUUID();
        settings.set(subsectionUuid, settingsOf(subsection));
        return { uuid: subsectionUuid, title: subsection.title };
      }),
    };
  });
  const content = createDocumentContent(sections, { generateId: randomUUID });
  const rows = reconcileSections(outlineOf(content).sections, [], [], settings);
  return storage.transaction((tx) =>
    tx.blueprints.createDefault(
      {
        ownerId: null,
        title: seed.title,
        description: seed.description,
        status: 'published',
        version: 1,
        visibility: 'public',
        publishedAt: now,
        systemPrompt: seed.systemPrompt,
        publisher: seed.publisher,
        content,
        createdAt: now,
      },
      rows,
    ),
  );
}
