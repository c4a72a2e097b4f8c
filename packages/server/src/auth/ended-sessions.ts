import { z } from 'zod';

const endedSessionsSchema = z.array(z.string().max(64)).max(1000);

/**
 * The session ids of a `sessions_ended` notification (db/SPEC.md SC1); a payload that is not one is
 * ignored. The chat socket and the live-document socket close the connections of these sessions.
 */
export function endedSessionIds(payload: string): ReadonlySet<string> {
  try {
    const parsed = endedSessionsSchema.safeParse(JSON.parse(payload));
    return new Set(parsed.success ? parsed.data : []);
  } catch {
    return new Set();
  }
}
