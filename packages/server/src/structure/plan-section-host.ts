import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyRequest } from 'fastify';
import { requireUser } from '../auth/require-user.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { notFound } from './not-found.js';
import { assertRevision, readIfMatch } from './revision.js';
import type { SectionEdit, SectionHost, SectionParent } from './section-host.js';
import type { SectionRow } from './section-rows.js';
import type { ParentKind } from './section-view.js';
import { retryStaleWrites } from './stale-write.js';

/** A stored plan as far as the section routes need it. */
export interface StoredPlan {
  id: string;
  revision: number;
  content: unknown;
}

/**
 * What differs between documents and blueprints behind the section and subsection routes: who may read
 * and change a plan, its one write path, its detail answer, and whether a live copy takes part.
 */
export interface PlanSectionAccess<Plan extends StoredPlan> {
  readonly kind: ParentKind;
  /** The plan for reading, or undefined when the caller may not see it (answered as 404). */
  readable(request: FastifyRequest, id: string): Promise<Plan | undefined>;
  /** The plan locked for writing inside `tx`, or undefined unless `user` may change it (404). */
  writable(tx: TransactionalStorage, user: UserRecord, id: string): Promise<Plan | undefined>;
  /** The kind's one write path, in the caller's transaction. */
  write(
    tx: TransactionalStorage,
    plan: Plan,
    edit: SectionEdit,
    context: { actor: UserRecord; now: Date; sections: SectionRow[] },
  ): Promise<{ plan: Plan; sections: SectionRow[] }>;
  /** The plan's detail answer (`document` or `blueprint` in a create answer). */
  detail(plan: Plan, sections: SectionRow[], userId: string): unknown;
  /**
   * Where the plan may be open live: its pending live changes derived before a call reads or writes it
   * (answering the live state a write is based on), and a written tree merged into the live copy.
   */
  live?: {
    before(userId: string, id: string): Promise<Uint8Array | undefined>;
    after(id: string, content: DocumentJson, base: Uint8Array | undefined): Promise<void>;
  };
}

function asParent(plan: StoredPlan, sections: SectionRow[]): SectionParent {
  // Every stored tree went through normalisation on its way in.
  return { id: plan.id, revision: plan.revision, content: plan.content as DocumentJson, sections };
}

/**
 * The parent side of the section and subsection routes for one kind of plan: reads check access (404
 * otherwise); writes run the route's change on the locked plan and write its edit through the kind's
 * one write path in one transaction, with `If-Match` checked (412) and stale writes retried, and then
 * reach the live copy, if any, as a change merged with what people are typing.
 */
export function planSectionHost<Plan extends StoredPlan>(
  deps: WorkspaceRouteDeps,
  access: PlanSectionAccess<Plan>,
): SectionHost {
  const { storage, sessions, now } = deps;
  const store = (tx: TransactionalStorage) => (access.kind === 'document' ? tx.documents : tx.blueprints);
  return {
    kind: access.kind,
    async read(request, id) {
      const plan = await access.readable(request, id);
      if (!plan) throw notFound(access.kind);
      return asParent(plan, await store(storage).sectionsOf(plan.id));
    },
    async write(request, id, change) {
      const user = await requireUser(request, sessions);
      const precondition = readIfMatch(request);
      const base = await access.live?.before(user.id, id);
      const outcome = await retryStaleWrites(() =>
        storage.transaction(async (tx) => {
          const plan = await access.writable(tx, user, id);
          if (!plan) throw notFound(access.kind);
          assertRevision(precondition, plan.revision, access.kind);
          const sections = await store(tx).sectionsOf(plan.id);
          const { edit, result } = change(asParent(plan, sections));
          const written = await access.write(tx, plan, edit, { actor: user, now: now(), sections });
          return {
            parent: asParent(written.plan, written.sections),
            result,
            detail: access.detail(written.plan, written.sections, user.id),
            content: edit.content,
          };
        }),
      );
      if (access.live && outcome.content) await access.live.after(id, outcome.content, base);
      const { content: _content, ...answer } = outcome;
      return answer;
    },
  };
}
