import { NOT_PERMITTED } from '../errors/api-error-text.js';
import { NotFoundError } from '../errors/cli-error.js';

/**
 * A 404 from the server as the product says it (`Document not found.`, spec 000 §8), exit 1; every other
 * error unchanged. The server answers 404 alike for a uuid that never existed and for someone else's.
 *
 * A 404 `not_permitted` is not an absence: the caller sees the plan, but their role does not allow this
 * (docs/teams.md, "A refusal says why"). It passes through, so the server's reason is what gets printed.
 */
export async function withNotFound<T>(
  run: () => Promise<T>,
  message: string,
  suggestion: string,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const { ApiError } = await import('@planwright/sdk');
    if (ApiError.isInstance(error) && error.status === 404 && error.serverCode !== NOT_PERMITTED) {
      throw new NotFoundError(message, { suggestion, cause: error });
    }
    throw error;
  }
}
