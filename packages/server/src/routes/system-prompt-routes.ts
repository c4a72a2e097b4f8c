import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/require-user.js';
import { HttpError } from '../http/http-error.js';
import { resolveGlobalSystemPrompt } from '../system-prompt/global-system-prompt.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/**
 * `GET apps/global-system-prompt/`: the prompt in force, to any signed-in user. Read-only over HTTP (writes
 * answer 403);
 * administrators set it through the environment or the admin command (docs/deployment.md).
 */
export function systemPromptRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { config, storage, sessions } = deps;

  app.get('/api/v1/apps/global-system-prompt/', async (request) => {
    await requireUser(request, sessions);
    const { prompt } = await resolveGlobalSystemPrompt({
      fromEnvironment: config.globalSystemPrompt,
      appSettings: storage.appSettings,
    });
    return { global_system_prompt: prompt };
  });

  /** Writes: 403 for every user (401 without a session); nothing is read or changed (spec 001 §6). */
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/v1/apps/global-system-prompt/',
    handler: async (request) => {
      await requireUser(request, sessions);
      throw new HttpError(403, 'permission_denied', 'The global system prompt is managed by administrators.');
    },
  });
}
