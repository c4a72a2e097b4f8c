import type { DocumentJson } from '../model/document-json.js';
import { Subscribable } from '../state/subscribable.js';
import type { ApplyProposalOptions } from './apply-common.js';
import { applyProposal } from './apply-proposal.js';
import type { ProposalToolName } from './proposal-payloads.js';
import { type ProposalReviewItem, reviewProposal } from './proposal-review.js';

/**
 * One AI turn whose changes are reviewed as suggestions (S1): a chat proposal, or an AI action's answer
 * written as a proposal.
 */
export interface SuggestionTurn {
  /** The proposal's `tool_id`, or the caller's id for an AI action. */
  readonly id: string;
  readonly toolName: ProposalToolName | string;
  readonly payload: unknown;
  readonly origin: 'chat' | 'action';
  /** What asked for it, e.g. "Fix spelling & grammar"; null for a chat turn. */
  readonly label: string | null;
  /** Who answered, as the provider's label says ("OpenAI gpt-4.1-mini", "Offline"). */
  readonly provider: string | null;
  /** An AI action's edits are one change: they are accepted or rejected together (S6). */
  readonly whole: boolean;
  /** Still being written by the AI (S9): drawn as it grows, not yet decidable. */
  readonly streaming?: boolean;
}

/** One pending change in the text (S2). */
export interface Suggestion {
  /** `${turnId}#${editIndex}` */
  readonly id: string;
  readonly turnId: string;
  readonly origin: SuggestionTurn['origin'];
  readonly label: string | null;
  readonly provider: string | null;
  readonly whole: boolean;
  /** Its turn is still being written (S9). */
  readonly streaming: boolean;
  readonly item: ProposalReviewItem;
}

/** What a decision did (S4): nothing applied when `ok` is false, and `message` says why. */
export type SuggestionOutcome =
  | { readonly ok: true; readonly applied: number }
  | { readonly ok: false; readonly message: string };

/** The queue as a UI draws it (S2). */
export interface SuggestionQueueSnapshot {
  /** Every pending suggestion across the plan, in document order within a turn, turns oldest first. */
  readonly suggestions: readonly Suggestion[];
  /** The suggestion the floating bar and the keyboard act on; null when none is pending. */
  readonly currentId: string | null;
}

/** What the queue needs of its host: the live document, the editor, and the chat's record (S1). */
export interface SuggestionQueuePorts {
  /** The live document, read at the moment of each decision. */
  getDocument(): DocumentJson;
  /** Makes `next` the document as one user edit (one undo step); false when the editor did not take it. */
  applyDocument(next: DocumentJson): boolean;
  /** Every change of a turn is decided: `accepted` when at least one was applied (S5). */
  onTurnDecided?(turn: SuggestionTurn, decision: 'accepted' | 'rejected'): void;
  /** Passed to the SDK's review and apply, e.g. `generateId`. */
  options?: ApplyProposalOptions;
}

const MESSAGES = {
  notPending: 'This suggestion was already decided.',
  noLongerApplies: 'This suggestion no longer applies',
  editorRefused: 'The editor did not take the change.',
  streaming: 'This suggestion is still being written.',
} as const;

/**
 * What of a proposal still being written can be shown (S9): a `propose_partial_edits` draft keeps the edits
 * that name their target and carry their content so far (the last may be cut mid-way); a full-subsection draft
 * is its arguments so far. Never throws.
 */
export function readableDraft(
  toolName: string,
  payload: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (toolName !== 'propose_partial_edits') return { ...payload };
  const edits = Array.isArray(payload.edits) ? payload.edits : [];
  const readable = edits.filter((edit): edit is Record<string, unknown> => {
    if (typeof edit !== 'object' || edit === null) return false;
    const record = edit as Record<string, unknown>;
    const target = record.targetNodeId ?? record.target_node_id;
    if (typeof target !== 'string' || target === '' || typeof record.mode !== 'string') return false;
    return record.mode === 'delete' || typeof record.content === 'string' || Array.isArray(record.content);
  });
  return { ...payload, edits: readable };
}

interface TurnState {
  /** Replaced while a draft streams (S9). */
  turn: SuggestionTurn;
  /** editIndex → decision, for the edits decided so far. */
  decided: Map<number, 'accepted' | 'rejected'>;
}

/**
 * The suggestions of a plan (S1–S8), framework-free: AI turns' proposed changes, each change reviewed against
 * the live document, accepted or rejected one by one, per subsection, per turn or all at once, and the
 * current one stepped through. Accepting runs the SDK's `applyProposal` on the live document and hands the
 * result to the editor as one edit; a turn whose changes are all decided is reported to `onTurnDecided`
 * (the chat's `tool_approval`). A web canvas, the CLI's chat screen or a test drive the same object.
 */
export class SuggestionQueue extends Subscribable {
  private readonly turns = new Map<string, TurnState>();
  private snapshot: SuggestionQueueSnapshot = { suggestions: [], currentId: null };

  constructor(private readonly ports: SuggestionQueuePorts) {
    super();
  }

  /** The queue as it stands; a new frozen object after every change. */
  readonly getSnapshot = (): SuggestionQueueSnapshot => this.snapshot;

  /**
   * Makes the queued turns of `origin` exactly `turns` (S1): new ones are added, ones no longer listed leave,
   * the decisions already taken on kept turns stay, and turns of the other origin are left alone. Idempotent.
   */
  sync(turns: readonly SuggestionTurn[], origin: SuggestionTurn['origin'] = 'chat'): void {
    const ids = new Set(turns.map((turn) => turn.id));
    let changed = false;
    for (const [id, state] of [...this.turns]) {
      if (state.turn.origin === origin && !ids.has(id)) {
        this.turns.delete(id);
        changed = true;
      }
    }
    for (const turn of turns) {
      const known = this.turns.get(turn.id);
      if (known === undefined) {
        this.turns.set(turn.id, { turn, decided: new Map() });
        changed = true;
      } else if (
        known.turn.payload !== turn.payload ||
        Boolean(known.turn.streaming) !== Boolean(turn.streaming)
      ) {
        // A draft grew, or became the complete proposal (S9): the same turn, read again.
        known.turn = turn;
        changed = true;
      }
    }
    if (changed) this.refresh();
  }

  /** Adds one turn (an AI action's answer, or Try again's) and makes its first change current (S1). */
  add(turn: SuggestionTurn): void {
    this.turns.set(turn.id, { turn, decided: new Map() });
    this.refresh();
    const first = this.snapshot.suggestions.find((suggestion) => suggestion.turnId === turn.id);
    if (first) this.select(first.id);
  }

  /** Drops a turn without deciding it (S1): an AI action discarded, a chat gone. */
  remove(turnId: string): void {
    if (this.turns.delete(turnId)) this.refresh();
  }

  /** Makes the turn's first pending change current; answers its id, or null when it has none. */
  selectTurn(turnId: string): string | null {
    const first = this.snapshot.suggestions.find((suggestion) => suggestion.turnId === turnId);
    if (first === undefined) return null;
    this.select(first.id);
    return first.id;
  }

  /** Whether the turn is still in the queue with a change pending. */
  has(turnId: string): boolean {
    return this.snapshot.suggestions.some((suggestion) => suggestion.turnId === turnId);
  }

  /** Reads every pending change again against the live document (S3): call it after the text changed. */
  refresh(): void {
    const document = this.ports.getDocument();
    const suggestions: Suggestion[] = [];
    for (const { turn, decided } of this.turns.values()) {
      const review = reviewProposal(document, turn.toolName, turn.payload, this.ports.options);
      if (!review.ok) continue;
      for (const item of review.items) {
        if (decided.has(item.editIndex)) continue;
        suggestions.push({
          id: `${turn.id}#${item.editIndex}`,
          turnId: turn.id,
          origin: turn.origin,
          label: turn.label,
          provider: turn.provider,
          whole: turn.whole,
          streaming: turn.streaming === true,
          item,
        });
      }
    }
    const current = this.snapshot.currentId;
    const keep = current !== null && suggestions.some((suggestion) => suggestion.id === current);
    this.publish(suggestions, keep ? current : (suggestions[0]?.id ?? null));
  }

  /** Makes `id` current (S7); unknown ids change nothing. */
  select(id: string): void {
    if (id === this.snapshot.currentId) return;
    if (!this.snapshot.suggestions.some((suggestion) => suggestion.id === id)) return;
    this.publish(this.snapshot.suggestions, id);
  }

  /** Steps the current suggestion forward or back, wrapping around (S7); answers the new current id. */
  step(direction: 1 | -1): string | null {
    const { suggestions, currentId } = this.snapshot;
    if (suggestions.length === 0) return null;
    const index = suggestions.findIndex((suggestion) => suggestion.id === currentId);
    const next = suggestions[(index + direction + suggestions.length) % suggestions.length] ?? suggestions[0];
    if (next === undefined) return null;
    this.publish(suggestions, next.id);
    return next.id;
  }

  /** Accepts one change (of a whole AI action: all of it) (S4). */
  accept(id: string): SuggestionOutcome {
    return this.decide(this.expand([id]), 'accepted');
  }

  /** Rejects one change (of a whole AI action: all of it) (S4). */
  reject(id: string): SuggestionOutcome {
    return this.decide(this.expand([id]), 'rejected');
  }

  /** Accepts every pending change matching `which` in one edit, so one undo takes them all back (S4, S6). */
  acceptAll(which: SuggestionFilter = {}): SuggestionOutcome {
    return this.decide(this.matching(which), 'accepted');
  }

  /** Rejects every pending change matching `which` (S4). */
  rejectAll(which: SuggestionFilter = {}): SuggestionOutcome {
    return this.decide(this.matching(which), 'rejected');
  }

  private matching(which: SuggestionFilter): Suggestion[] {
    return this.snapshot.suggestions.filter(
      (suggestion) =>
        (which.turnId === undefined || suggestion.turnId === which.turnId) &&
        (which.subsectionUuid === undefined || suggestion.item.subsectionUuid === which.subsectionUuid),
    );
  }

  /** The suggestions `ids` name, with every other change of a whole turn they touch (S6). */
  private expand(ids: readonly string[]): Suggestion[] {
    const chosen = this.snapshot.suggestions.filter((suggestion) => ids.includes(suggestion.id));
    const wholeTurns = new Set(chosen.filter((suggestion) => suggestion.whole).map((s) => s.turnId));
    return this.snapshot.suggestions.filter(
      (suggestion) => ids.includes(suggestion.id) || wholeTurns.has(suggestion.turnId),
    );
  }

  private decide(chosen: readonly Suggestion[], decision: 'accepted' | 'rejected'): SuggestionOutcome {
    if (chosen.length === 0) return { ok: false, message: MESSAGES.notPending };
    if (chosen.some((suggestion) => suggestion.streaming)) return { ok: false, message: MESSAGES.streaming };
    if (decision === 'accepted') {
      const stale = chosen.find((suggestion) => suggestion.item.problem !== null);
      if (stale?.item.problem) {
        return { ok: false, message: `${MESSAGES.noLongerApplies}: ${stale.item.problem.message}` };
      }
      // Every turn's chosen edits applied in turn order on one document: the editor takes one edit (S6).
      let document = this.ports.getDocument();
      for (const [turnId, edits] of groupByTurn(chosen)) {
        const state = this.turns.get(turnId);
        if (state === undefined) continue;
        const result = applyProposal(document, state.turn.toolName, state.turn.payload, {
          ...this.ports.options,
          accept: edits,
        });
        if (!result.ok) return { ok: false, message: result.message };
        document = result.document;
      }
      if (!this.ports.applyDocument(document)) return { ok: false, message: MESSAGES.editorRefused };
    }
    const finished: TurnState[] = [];
    for (const [turnId, edits] of groupByTurn(chosen)) {
      const state = this.turns.get(turnId);
      if (state === undefined) continue;
      for (const edit of edits) state.decided.set(edit, decision);
      finished.push(state);
    }
    this.refresh();
    for (const state of finished) {
      if (this.has(state.turn.id)) continue;
      this.turns.delete(state.turn.id);
      const anyAccepted = [...state.decided.values()].includes('accepted');
      this.ports.onTurnDecided?.(state.turn, anyAccepted ? 'accepted' : 'rejected');
    }
    return { ok: true, applied: decision === 'accepted' ? chosen.length : 0 };
  }

  private publish(suggestions: readonly Suggestion[], currentId: string | null): void {
    this.snapshot = Object.freeze({ suggestions: Object.freeze([...suggestions]), currentId });
    this.notify();
  }
}

/** Which suggestions a bulk decision takes (S4): all, one turn's, one subsection's. */
export interface SuggestionFilter {
  readonly turnId?: string;
  readonly subsectionUuid?: string;
}

function groupByTurn(suggestions: readonly Suggestion[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const suggestion of suggestions) {
    const edits = groups.get(suggestion.turnId) ?? [];
    edits.push(suggestion.item.editIndex);
    groups.set(suggestion.turnId, edits);
  }
  return groups;
}
