import { expect } from 'vitest';
import type { SignedInUser } from '../../support/signed-in-user.js';
import type { TestApp } from '../../support/test-app.js';
import { call } from '../../support/workspace-calls.js';

/** All-time AI usage as `GET apps/ai/usage/` answers it. */
export interface AiUsageTotals {
  calls: number;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** The user's all-time AI usage, read back through `GET apps/ai/usage/`, for all documents or one. */
export async function aiUsageTotals(
  t: TestApp,
  user: SignedInUser,
  documentUuid?: string,
): Promise<AiUsageTotals> {
  const query = documentUuid ? `?document_uuid=${documentUuid}` : '';
  const res = await call(t, 'GET', `apps/ai/usage/${query}`, { as: user });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().total as AiUsageTotals;
}
