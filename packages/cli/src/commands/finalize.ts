import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const finalizeInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    subsection: z.string().trim().min(1, "expected the subsection's uuid or title"),
    section: z.string().trim().min(1, "expected the section's uuid or title").optional(),
    undo: z.boolean().default(false),
  });

/** What `planwright finalize --json` prints (T12). */
export interface FinalizeReport {
  documentUuid: string;
  sectionUuid: string;
  subsectionUuid: string;
  title: string;
  finalized: boolean;
  /** False when the subsection already was in that state (nothing was sent). */
  changed: boolean;
  progress: { finalized: number; total: number; percent: number };
}

/**
 * `planwright finalize <uuid> --subsection <uuid|title> [--undo]`: marks a subsection done (or not done
 * again) with a PATCH of its `finalized` (T12–T14).
 */
export function registerFinalizeCommand(program: Command, io: CliIo): void {
  program
    .command('finalize')
    .description('mark a subsection of a document finalized, or not with --undo (needs `planwright login`)')
    .argument('<uuid>', "the document's uuid")
    .requiredOption('--subsection <uuid|title>', "the subsection's uuid or title (case-insensitive)")
    .option('--section <uuid|title>', 'look for the subsection only in this section')
    .option('--undo', 'mark it not finalized again')
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, finalizeInput);
      const [{ openSignedInSession }, { withNotFound }, target, { progressReport }, { terminalText }, sdk] =
        await Promise.all([
          import('../session/signed-in-call.js'),
          import('../workspace/not-found.js'),
          import('../chat/outline-target.js'),
          import('../chat/progress-report.js'),
          import('../display/terminal-text.js'),
          import('@planwright/sdk'),
        ]);
      const session = await openSignedInSession(io, input.server);
      const document = await withNotFound(
        () => session.call((client) => client.documents.get(input.uuid)),
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      );
      const within =
        input.section === undefined
          ? undefined
          : target.findSection(document.sections, input.section, input.uuid).section;
      const { section, subsection } = target.findSubsection(
        document.sections,
        input.subsection,
        input.uuid,
        within,
      );
      const finalized = !input.undo;
      const changed = subsection.finalized !== finalized;
      if (changed) {
        await withNotFound(
          () =>
            session.call((client) =>
              client.documents.sections.subsections.update(input.uuid, section.uuid, subsection.uuid, {
                finalized,
              }),
            ),
          'Subsection not found.',
          `Run \`planwright progress ${terminalText(input.uuid)}\` to see the sections and subsections.`,
        );
      }
      // The outline as it is now, counted the way `progress` counts it.
      const after = progressReport({
        sections: document.sections.map((part) => ({
          ...part,
          subsections: part.subsections.map((sub) =>
            sub.uuid === subsection.uuid ? { ...sub, finalized } : sub,
          ),
        })),
      });
      const report: FinalizeReport = {
        documentUuid: input.uuid,
        sectionUuid: section.uuid,
        subsectionUuid: subsection.uuid,
        title: subsection.title,
        finalized,
        changed,
        progress: { finalized: after.finalized, total: after.total, percent: after.percent },
      };
      createOutput(io, input).result(report, () => {
        const name = `"${terminalText(subsection.title).trim() || 'Untitled Subsection'}"`;
        const state = finalized ? 'finalized' : 'not finalized';
        return [
          changed ? `Marked ${name} ${state}.` : `${name} was already ${state}.`,
          `Progress: ${sdk.formatProgressShort(after)} subsections finalized.`,
        ];
      });
    });
}
