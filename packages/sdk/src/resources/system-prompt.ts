import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';

/** What `GET apps/global-system-prompt/` answers. */
export const globalSystemPromptSchema = z.object({ global_system_prompt: z.string().nullish() });

/** The global system prompt: read-only for users, set by administrators (spec 000 §6). */
export interface SystemPromptResource {
  /** The prompt the AI gets before every other; `''` when none is set. */
  get(options?: CallOptions): Promise<string>;
}

/** The system prompt resource over a request helper. */
export function createSystemPromptResource(http: HttpClient): SystemPromptResource {
  return {
    get: async (options = {}) => {
      const answer = await http.get('apps/global-system-prompt/', {
        schema: globalSystemPromptSchema,
        signal: options.signal,
      });
      return answer.global_system_prompt ?? '';
    },
  };
}
