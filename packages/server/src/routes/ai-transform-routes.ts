import type { FastifyInstance } from 'fastify';
import type { AiRuntime } from '../ai/ai-runtime.js';
import {
  AiModelRequiredError,
  AiProviderError,
  type ProviderInfo,
  type TokenUsage,
  type TransformAction,
} from '../ai/providers/ai-provider.js';
import { providerSummary } from '../ai/providers/provider-view.js';
import { runTransform } from '../ai/transform/run-transform.js';
import { parseTransformRequest } from '../ai/transform/transform-request.js';
import { TransformTextStream } from '../ai/transform/transform-stream.js';
import { requireUser, signedInFirst } from '../auth/require-user.js';
import { permitted } from '../documents/document-access.js';
import { HttpError } from '../http/http-error.js';
import { NDJSON_MEDIA_TYPE, prefersNdjson } from '../http/ndjson-negotiation.js';
import { CONTENT_BODY_LIMIT } from '../structure/not-found.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** A provider failure in words a user can act on (SPEC TR53): never the provider's own message. */
function providerFailure(error: AiProviderError, timedOut: boolean): HttpError {
  if (timedOut || error.kind === 'timeout') {
    return new HttpError(504, 'ai_timeout', 'The AI took too long to answer. Please try again.');
  }
  if (error.kind === 'rate_limited') {
    return new HttpError(
      429,
      'ai_rate_limited',
      'The AI service is busy right now. Please wait a minute and try again.',
    );
  }
  if (error.kind === 'bad_response') {
    return new HttpError(
      502,
      'ai_unavailable',
      'The AI gave an answer that could not be used. Please try again.',
    );
  }
  return new HttpError(
    502,
    'ai_unavailable',
    'The AI service is unavailable right now. Please try again later.',
  );
}

/** An action the provider cannot do without a model (SPEC TR56): said plainly, never faked. */
function modelRequired(): HttpError {
  return new HttpError(
    409,
    'ai_model_required',
    'This action needs an AI model. Ask your administrator to connect one.',
  );
}

function canDo(info: ProviderInfo, action: TransformAction): boolean {
  return info.transformActions === undefined || info.transformActions.includes(action);
}

/**
 * `POST apps/ai/transform/` (spec 001 §7, SPEC TR50–TR56): text mode `{text, action, custom_prompt}` →
 * `{transformed_text, provider}`, structured mode `{mode: "structured", action, items, custom_prompt}` →
 * `{items, provider}`. Signed-in users only; a `document_uuid` must be the caller's (404 otherwise). Each
 * request counts against the user's AI rate limit and its token usage is recorded, also when it fails.
 */
export function aiTransformRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps & { ai: AiRuntime }): void {
  const { storage, sessions, ai } = deps;

  app.post(
    '/api/v1/apps/ai/transform/',
    { bodyLimit: CONTENT_BODY_LIMIT, onRequest: signedInFirst(sessions) },
    async (request, reply) => {
      const user = await requireUser(request, sessions);
      const input = parseTransformRequest(request.body);
      let documentId: string | null = null;
      if (input.documentUuid !== null) {
        const document = permitted(await storage.documents.findHeadFor(input.documentUuid, user.id), 'edit');
        documentId = document.id;
      }
      // Refused before the rate limit counts it: nothing was called.
      if (!canDo(ai.provider.info, input.action)) throw modelRequired();
      await ai.usage.begin(user.id, 'transform');

      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new AiProviderError('timeout', 'The transform took too long.'));
      }, ai.config.timeoutMs);
      // The client went away before the answer was written: the provider call is no longer wanted.
      const onClose = () => {
        if (!reply.raw.writableFinished) {
          controller.abort(new AiProviderError('cancelled', 'The client disconnected.'));
        }
      };
      reply.raw.once('close', onClose);
      const usage: TokenUsage = { inputTokens: null, outputTokens: null };
      // TR57: a text-mode answer can be asked for as it is written (one JSON event per line).
      const stream =
        input.mode === 'text' && prefersNdjson(request.headers) ? new TransformTextStream() : null;
      const work = (async () => {
        const outcome = await runTransform(input, {
          provider: ai.provider,
          signal: controller.signal,
          ...(stream ? { onText: (text: string) => stream.text(text) } : {}),
          onUsage: (part) => {
            if (part.inputTokens !== null) usage.inputTokens = (usage.inputTokens ?? 0) + part.inputTokens;
            if (part.outputTokens !== null)
              usage.outputTokens = (usage.outputTokens ?? 0) + part.outputTokens;
          },
        });
        const provider = providerSummary(ai.provider.info);
        return outcome.mode === 'text'
          ? { transformed_text: outcome.transformedText, provider }
          : { items: outcome.items, provider };
      })();
      const finish = async () => {
        clearTimeout(timer);
        reply.raw.off('close', onClose);
        try {
          await ai.usage.record({
            userId: user.id,
            documentId,
            kind: 'transform',
            provider: ai.provider.info,
            usage,
          });
        } catch (error) {
          // Losing one usage row must not lose the user's answer.
          request.log.error({ err: error }, 'recording AI usage failed');
        }
      };
      if (stream) {
        void work
          .then(
            (body) => stream.result(body),
            (error: unknown) => {
              const failed = failureOf(error, timedOut, request.log);
              stream.error(failed.statusCode, { detail: failed.message, code: failed.code });
            },
          )
          .finally(finish);
        return (
          reply
            .type(`${NDJSON_MEDIA_TYPE}; charset=utf-8`)
            .header('cache-control', 'no-store')
            // nginx and its kin pass each line on at once instead of buffering the answer.
            .header('x-accel-buffering', 'no')
            .send(stream.body)
        );
      }
      try {
        return await work;
      } catch (error) {
        throw failureOf(error, timedOut, request.log);
      } finally {
        await finish();
      }
    },
  );
}

/** Any failure of a transform as the HTTP error it answers (TR53): never a 500, never the provider's words. */
function failureOf(
  error: unknown,
  timedOut: boolean,
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void },
): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof AiModelRequiredError) return modelRequired();
  if (error instanceof AiProviderError) {
    log.warn({ kind: error.kind, status: error.status }, 'AI transform failed');
    return providerFailure(error, timedOut);
  }
  // A provider that breaks its contract is still a failed upstream call, never a 500.
  log.error({ err: error }, 'AI transform failed unexpectedly');
  return new HttpError(
    502,
    'ai_unavailable',
    'The AI service is unavailable right now. Please try again later.',
  );
}
