import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AiRuntime } from '../ai/ai-runtime.js';
import { providerView } from '../ai/providers/provider-view.js';
import { requireUser } from '../auth/require-user.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidField } from '../http/uuid-param.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

const usageQuery = z.object({
  document_uuid: uuidField.optional(),
});

/**
 * `GET apps/ai/provider/`: who answers (the UI labels offline drafts as such); `GET apps/ai/usage/`: the
 * user's AI calls and tokens, in total and over the last 30 days, optionally for one document.
 */
export function aiRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps & { ai: AiRuntime }): void {
  const { storage, sessions, now, ai } = deps;

  app.get('/api/v1/apps/ai/provider/', async (request) => {
    await requireUser(request, sessions);
    return {
      ...providerView(ai.provider.info),
      calls_per_minute: ai.config.callsPerMinute,
    };
  });

  app.get('/api/v1/apps/ai/usage/', async (request) => {
    const user = await requireUser(request, sessions);
    const query = parseInput(usageQuery, request.query);
    // The caller's own usage: any role on the document may ask.
    if (query.document_uuid && !(await storage.documents.findHeadFor(query.document_uuid, user.id))) {
      throw new HttpError(404, 'not_found', 'No such document.');
    }
    const since = new Date(now().getTime() - 30 * 24 * 60 * 60 * 1000);
    const [total, recent] = await Promise.all([
      storage.aiUsage.totals({ userId: user.id, documentId: query.document_uuid }),
      storage.aiUsage.totals({ userId: user.id, documentId: query.document_uuid, since }),
    ]);
    const view = (t: typeof total) => ({
      calls: t.calls,
      input_tokens: t.inputTokens,
      output_tokens: t.outputTokens,
    });
    return { document_uuid: query.document_uuid ?? null, total: view(total), last_30_days: view(recent) };
  });
}
