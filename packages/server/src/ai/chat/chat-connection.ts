import type { SessionService } from '../../auth/session-service.js';
import {
  databaseFailureSummary,
  databaseOutage,
  databaseOutageWords,
} from '../../db/database-unavailable.js';
import { HttpError } from '../../http/http-error.js';
import { type ChatRecord, UNTITLED_CHAT } from '../../storage/chat-repository.js';
import type { UserRecord } from '../../storage/user-repository.js';
import { recordActivity } from '../../structure/activity-entries.js';
import { providerSummary } from '../providers/provider-view.js';
import { readFrameAttachments, storedAttachmentsOf, withAttachments } from './chat-attachments.js';
import { CHAT_CLOSE, type IncomingChatFrame, type OutgoingChatFrame, parseChatFrame } from './chat-frames.js';
import { chatTitleFrom, HISTORY_LIMIT, historyEntries } from './chat-history.js';
import { LiveChatTurns } from './chat-live-turns.js';
import { type ChatScope, type ChatScopeIds, contextFitsScope, resolveChatScope } from './chat-scope.js';
import type { ChatSocketPlaces } from './chat-socket-places.js';
import { type ChatDeps, proposalFrame, runChatTurn } from './chat-turn.js';

/** The part of a WebSocket a chat connection uses (`ws` fits). */
export interface ChatSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;
/** How long an answer's lease on its question lasts unrenewed: an instance silent this long is taken as dead (CH19). */
export const ANSWER_LEASE_MS = 15_000;
/** How often the answering instance renews its lease: three beats fit in one lease. */
export const ANSWER_HEARTBEAT_MS = 5_000;
/** How long a socket without a session cookie may take to send `authenticate`. */
export const AUTHENTICATE_TIMEOUT_MS = 10_000;

export interface ChatConnectionOptions {
  deps: ChatDeps & { sessions: SessionService };
  socket: ChatSocketLike;
  ids: ChatScopeIds & { chatId: string | null };
  /** The browser client's session cookie, if the upgrade carried one (never a token from the URL: refused). */
  cookieToken: string | undefined;
  ip: string;
  userAgent: string;
  /** Timers, injected by tests. */
  setTimer?: (callback: () => void, ms: number) => { cancel(): void };
  /** The cap on each user's open chat sockets; without it (unit tests) there is none. */
  places?: ChatSocketPlaces;
  /** The answers streaming on this instance, shared by its sockets (CH18); without it each socket has its own. */
  liveTurns?: LiveChatTurns;
}

/**
 * One chat socket (spec 001 §7 "Realtime chat"): authenticates with the session cookie or the first
 * `authenticate` frame, resolves the document, section, subsection and chat, then answers frames.
 * Frames are handled in order; an answer streams while pings, decisions and `stop` are still heard.
 */
export class ChatConnection {
  private user: UserRecord | null = null;
  private scope: ChatScope | null = null;
  private chat: ChatRecord | null = null;
  private closed = false;
  /** The session and token the socket authenticated with, so its sign-out closes it (db/SPEC.md SO3). */
  private session: { id: string; token: string } | null = null;
  /** Frames wait here until the previous one is handled: order is the client's order. */
  private frames: Promise<void> = Promise.resolve();
  /** Answers run one after another. */
  private turns: Promise<void> = Promise.resolve();
  private turn: AbortController | null = null;
  private authTimer: { cancel(): void } | null = null;
  private readonly liveTurns: LiveChatTurns;

  constructor(private readonly options: ChatConnectionOptions) {
    this.liveTurns = options.liveTurns ?? new LiveChatTurns();
  }

  /**
   * Starts the connection: checks the session cookie now, if any, and waits for `authenticate` (a cookie
   * that is no session, say a stale one beside a valid token, leaves the frame to decide).
   */
  start(): void {
    const setTimer = this.options.setTimer ?? defaultTimer;
    this.authTimer = setTimer(() => {
      if (!this.user) this.close(CHAT_CLOSE.notAuthenticated);
    }, AUTHENTICATE_TIMEOUT_MS);
    const { cookieToken } = this.options;
    if (cookieToken !== undefined) this.enqueue(() => this.authenticate(cookieToken, 'browser'));
  }

  /** A frame arrived. */
  receive(data: string): void {
    this.enqueue(() => this.handle(data));
  }

  /** The socket closed: the answer being streamed still finishes and is stored. */
  onClose(): void {
    this.closed = true;
    this.authTimer?.cancel();
    this.options.places?.release(this);
  }

  /** Resolves once every frame received so far is handled and every answer finished (tests, shutdown). */
  async settled(): Promise<void> {
    await this.frames;
    await this.turns;
  }

  /**
   * Sessions ended on some instance (sign-out, password reset, expiry): a socket opened with one of them
   * closes with 4401, as its next request would fail. `null` means some may have been missed (the
   * listening connection was lost), so the socket checks its own session again.
   */
  sessionsEnded(ids: ReadonlySet<string> | null): void {
    const session = this.session;
    if (!session || this.closed) return;
    if (ids) {
      if (ids.has(session.id)) this.close(CHAT_CLOSE.notAuthenticated);
      return;
    }
    this.enqueue(async () => {
      const lookup = await this.options.deps.sessions
        .lookup(
          { client: 'app', token: session.token, ip: this.options.ip, userAgent: this.options.userAgent },
          { anyClient: true },
        )
        // Not an answer about the session (the database is away again): the next recheck decides.
        .catch(() => undefined);
      if (lookup && lookup.kind !== 'live') this.close(CHAT_CLOSE.notAuthenticated);
    });
  }

  /**
   * Who may open a plan changed on some instance (a member removed, a role changed, an organisation left):
   * a socket on that document asks its access again and closes with 4404 when it may no longer chat, at
   * once rather than at its next message (docs/teams.md). `null` means announcements may have been missed.
   */
  accessChanged(documentId: string | null): void {
    const user = this.user;
    if (!user || this.closed) return;
    if (documentId !== null && documentId !== this.options.ids.documentId) return;
    this.enqueue(async () => {
      if (this.closed) return;
      const resolution = await resolveChatScope(this.options.deps.storage, user.id, this.options.ids);
      if (resolution.kind !== 'ok') this.close(CHAT_CLOSE.notFound);
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.frames = this.frames.then(work).catch((error: unknown) => {
      // The database away is an outage to wait out, told as such (db/SPEC.md DU1), not a bug.
      const outage = databaseOutage(error);
      if (outage) {
        this.options.deps.log.warn({ err: databaseFailureSummary(error) }, `chat frame: database ${outage}`);
        this.send({ type: 'system', content: databaseOutageWords(outage).detail });
        return;
      }
      this.options.deps.log.error({ err: error }, 'chat frame failed');
      this.send({ type: 'system', content: 'Something went wrong on the server. Please try again.' });
    });
  }

  private send(frame: OutgoingChatFrame): void {
    const { socket } = this.options;
    if (this.closed || socket.readyState !== OPEN) return;
    socket.send(JSON.stringify(frame));
  }

  private close(how: { code: number; reason: string }): void {
    if (this.closed) return;
    this.closed = true;
    this.authTimer?.cancel();
    this.options.places?.release(this);
    this.options.socket.close(how.code, how.reason);
  }

  /**
   * `from` is where the token came from: a frame's token is a session of either client (as `/api/v1/` takes
   * X-Session-Token); a cookie must be a browser session (an app token planted as a cookie must not work).
   */
  private async authenticate(token: string, from: 'frame' | 'browser'): Promise<void> {
    if (this.closed || this.user) return;
    const { deps } = this.options;
    const lookup = await deps.sessions.lookup(
      {
        client: from === 'browser' ? 'browser' : 'app',
        token: token.length <= 256 ? token : undefined,
        ip: this.options.ip,
        userAgent: this.options.userAgent,
      },
      { anyClient: from === 'frame' },
    );
    if (lookup.kind !== 'live' || !lookup.session.authenticated || !lookup.user) {
      // A cookie that is no session is not the answer yet: the `authenticate` frame may still come.
      if (from === 'frame') this.close(CHAT_CLOSE.notAuthenticated);
      return;
    }
    // A read-only personal access token chats no more than a viewer does (a chat writes its history).
    if (lookup.session.scope === 'read') return this.close(CHAT_CLOSE.notFound);
    const resolution = await resolveChatScope(deps.storage, lookup.user.id, this.options.ids);
    // Not theirs, or a role that does not chat: closed alike (4404, as HTTP's 404).
    if (resolution.kind !== 'ok') return this.close(CHAT_CLOSE.notFound);
    const { scope } = resolution;
    let chat: ChatRecord | undefined;
    if (this.options.ids.chatId) {
      chat = await deps.storage.chats.findOwned(this.options.ids.chatId, lookup.user.id);
      // A chat id from another document or scope is refused rather than silently mixed in.
      if (!chat || chat.documentId !== scope.document.id || chat.objectId !== scope.objectId) {
        return this.close(CHAT_CLOSE.notFound);
      }
    } else {
      chat = await deps.storage.chats.latest({
        ownerId: lookup.user.id,
        documentId: scope.document.id,
        target: scope.target,
        objectId: scope.objectId,
      });
    }
    // Closed while it was looked up: taking a place now would hold it for ever.
    if (this.closed) return;
    if (this.options.places && !this.options.places.take(lookup.user.id, this))
      return this.close(CHAT_CLOSE.tooManySockets);
    this.authTimer?.cancel();
    this.session = { id: lookup.session.id, token };
    this.user = lookup.user;
    this.scope = scope;
    this.chat = chat ?? null;
    this.send({
      type: 'authenticated',
      chat_id: this.chat?.id ?? null,
      provider: providerSummary(deps.ai.provider.info),
    });
    if (!this.joinLiveTurn()) await this.answerOrphan(lookup.user, scope);
  }

  /**
   * CH18: a socket that (re)connects to a chat whose answer is streaming on this instance gets the text so far and
   * the rest of the stream, and its `stop` stops it: a reconnect does not cut the answer off.
   */
  private joinLiveTurn(): boolean {
    const turn = this.chat ? this.liveTurns.of(this.chat.id) : undefined;
    if (!turn) return false;
    this.turn = turn.controller;
    turn.join((out) => this.send(out));
    return true;
  }

  private async handle(data: string): Promise<void> {
    if (this.closed) return;
    const frame = parseChatFrame(data);
    if ('refused' in frame) {
      this.send({ type: 'error', code: 'invalid_frame', detail: frame.detail });
      return;
    }
    if (frame.type === 'authenticate') {
      if (!this.user) await this.authenticate(frame.token, 'frame');
      return;
    }
    if (!this.user || !this.scope) {
      // Anything before authentication is a client that skipped it.
      this.close(CHAT_CLOSE.notAuthenticated);
      return;
    }
    await this.dispatch(frame, this.user, this.scope);
  }

  private async dispatch(frame: IncomingChatFrame, user: UserRecord, scope: ChatScope): Promise<void> {
    const { deps } = this.options;
    switch (frame.type) {
      case 'ping':
        this.send({ type: 'pong', timestamp: frame.timestamp ?? null });
        return;
      case 'history': {
        const chat = this.chat;
        const messages = chat ? await deps.storage.chats.messagesOf(chat.id, HISTORY_LIMIT) : [];
        this.send({
          type: 'history_response',
          chat_id: chat?.id ?? null,
          messages: historyEntries(messages),
        });
        // Every proposal comes back after a reload, a restart or on another instance: pending ones to
        // decide, decided ones to show (and a rejected one to accept after all, CH15).
        const proposals = chat ? await deps.storage.chats.proposalsOf(chat.id) : [];
        for (const proposal of proposals) this.send(proposalFrame(proposal));
        return;
      }
      case 'message':
        await this.acceptMessage(frame, user, scope);
        return;
      case 'tool_approval':
        await this.decide(frame.tool_id, frame.action);
        return;
      case 'stop':
        this.turn?.abort();
        return;
      default:
        return;
    }
  }

  private async acceptMessage(
    frame: Extract<IncomingChatFrame, { type: 'message' }>,
    user: UserRecord,
    scope: ChatScope,
  ): Promise<void> {
    const { deps } = this.options;
    const text = frame.message.trim();
    if (text === '') {
      this.send({ type: 'error', code: 'blank_message', detail: 'A message cannot be blank.' });
      return;
    }
    if (!contextFitsScope(frame.context, this.options.ids, this.chat?.id ?? null)) {
      this.send({
        type: 'error',
        code: 'wrong_scope',
        detail: 'context: this message was written in another document, section, subsection or chat.',
        client_id: frame.client_id ?? null,
      });
      // The client counts the answers it is owed: this one will not come (CH17).
      this.send({ type: 'end_of_response', client_id: frame.client_id ?? null });
      return;
    }
    const read = readFrameAttachments(frame.attachments);
    if (!read.ok) {
      this.send({
        type: 'error',
        code: 'invalid_message',
        detail: read.detail,
        client_id: frame.client_id ?? null,
      });
      return;
    }
    const { attachments } = read;
    const clientId = frame.client_id ?? null;
    const duplicate = () =>
      // A resend of a message already answered (or being answered): nothing runs twice.
      this.send({ type: 'end_of_response', duplicate: true, client_id: clientId });
    if (this.chat && clientId && (await deps.storage.chats.hasClientMessage(this.chat.id, clientId))) {
      if (!(await this.answerOrphan(user, scope))) duplicate();
      return;
    }
    // The limit is checked before anything is stored: a flood of messages over it writes nothing.
    try {
      await deps.ai.usage.begin(user.id, 'chat');
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.send({ type: 'system', content: error.message });
      this.send({ type: 'end_of_response' });
      return;
    }
    const now = deps.now();
    const chat =
      this.chat ??
      (await deps.storage.chats.create(
        {
          ownerId: user.id,
          documentId: scope.document.id,
          target: scope.target,
          objectId: scope.objectId,
          sectionUuid: scope.sectionUuid,
          title: chatTitleFrom(text),
        },
        now,
      ));
    this.chat = chat;
    const stored = await deps.storage.chats.addMessage({
      chatId: chat.id,
      role: 'user',
      content: frame.message,
      clientId,
      metadata: {
        options: frame.options ?? {},
        ...(attachments.length > 0 ? { attachments } : {}),
        // This instance answers it; should it die, another takes over once the lease runs out (CH19).
        lease_until: now.getTime() + ANSWER_LEASE_MS,
      },
      createdAt: now,
    });
    if (stored.duplicate) {
      // A resend of a question whose instance died mid-answer: answered here instead (CH19).
      if (!(await this.answerOrphan(user, scope))) duplicate();
      return;
    }
    const { message } = stored;
    if (chat.title === UNTITLED_CHAT) {
      await deps.storage.chats.nameIfUntitled(chat.id, chatTitleFrom(text), now);
      this.chat = { ...chat, title: chatTitleFrom(text) };
    }
    this.send({
      type: 'human',
      id: message.id,
      content: message.content,
      client_id: message.clientId,
      chat_id: chat.id,
    });
    this.startAnswer(chat, scope, user, message.id, withAttachments(frame.message, attachments), {
      webAccess: frame.options?.web_access === 'on',
      research: frame.options?.research === 'on',
    });
  }

  /**
   * Answers a stored user message: the answer streams outside the frame queue (so `stop`, pings and decisions are
   * heard meanwhile) to every socket on the chat (CH18), while this instance renews its lease on the question (CH19).
   */
  private startAnswer(
    chat: ChatRecord,
    scope: ChatScope,
    user: UserRecord,
    questionId: string,
    message: string,
    options: { webAccess: boolean; research: boolean },
  ): void {
    const { deps } = this.options;
    const controller = new AbortController();
    this.turns = this.turns.then(async () => {
      this.turn = controller;
      const live = this.liveTurns.begin(chat.id, controller);
      live.turn.join((out) => this.send(out));
      const heartbeat = this.renewLease(questionId);
      try {
        await runChatTurn(
          deps,
          { chat, scope, userId: user.id, message, options, signal: controller.signal },
          live.turn.send,
        );
      } catch (error) {
        deps.log.error({ err: error, chatId: chat.id }, 'chat turn failed');
        live.turn.send({ type: 'system', content: 'Something went wrong on the server. Please try again.' });
        live.turn.send({ type: 'end_of_response' });
      } finally {
        heartbeat.cancel();
        live.end();
        if (this.turn === controller) this.turn = null;
        // Answered, or told why not: no other instance should answer it again.
        await deps.storage.chats.releaseAnswerLease(questionId).catch((error: unknown) => {
          deps.log.warn({ err: databaseFailureSummary(error) }, 'chat answer lease not released');
        });
      }
    });
  }

  /** CH19: renews the lease on the question every `ANSWER_HEARTBEAT_MS` until cancelled. */
  private renewLease(questionId: string): { cancel(): void } {
    const { deps } = this.options;
    const setTimer = this.options.setTimer ?? defaultTimer;
    let timer: { cancel(): void } | null = null;
    let stopped = false;
    const beat = () => {
      timer = setTimer(() => {
        if (stopped) return;
        deps.storage.chats
          .renewAnswerLease(questionId, deps.now().getTime() + ANSWER_LEASE_MS)
          // The database away: the next beat tries again (the lease outlasts two missed beats).
          .catch(() => undefined)
          .finally(() => {
            if (!stopped) beat();
          });
      }, ANSWER_HEARTBEAT_MS);
    };
    beat();
    return {
      cancel: () => {
        stopped = true;
        timer?.cancel();
      },
    };
  }

  /**
   * CH19: the chat's last question, if the instance answering it died (its lease ran out with no finished
   * answer), is answered here, once across instances (the claim is a compare-and-set on the lease).
   */
  private async answerOrphan(user: UserRecord, scope: ChatScope): Promise<boolean> {
    const { deps } = this.options;
    const chat = this.chat;
    if (!chat) return false;
    const now = deps.now().getTime();
    const question = await deps.storage.chats.claimOrphanedQuestion(chat.id, now, now + ANSWER_LEASE_MS);
    if (!question) return false;
    deps.log.info({ chatId: chat.id, messageId: question.id }, 'answering a question whose instance died');
    const stored = (question.metadata as { options?: { web_access?: unknown; research?: unknown } }).options;
    this.startAnswer(
      chat,
      scope,
      user,
      question.id,
      withAttachments(question.content, storedAttachmentsOf(question.metadata)),
      {
        webAccess: stored?.web_access === 'on',
        research: stored?.research === 'on',
      },
    );
    return true;
  }

  private async decide(toolId: string, action: 'accept' | 'reject'): Promise<void> {
    const { deps } = this.options;
    const chat = this.chat;
    const decision = chat
      ? await deps.storage.chats.decideProposal(
          chat.id,
          toolId,
          action === 'accept' ? 'accepted' : 'rejected',
          deps.now(),
        )
      : ({ kind: 'missing' } as const);
    if (decision.kind === 'missing') {
      this.send({ type: 'error', code: 'unknown_tool', detail: 'No such proposal in this chat.' });
      return;
    }
    const { proposal } = decision;
    const accepted = proposal.status === 'accepted';
    const user = this.user;
    const document = this.scope?.document;
    // Accepting is a team event (docs/teams.md "Activity"); rejecting, or deciding again, is not.
    if (decision.kind === 'decided' && accepted && user && document) {
      // Its provenance: who wrote it (the provider and model that answered), for the team to see.
      const provider = proposal.messageId ? await deps.storage.chats.providerOf(proposal.messageId) : null;
      const by = provider === null ? '' : ` written by ${provider}`;
      await recordActivity(
        deps.storage,
        {
          ownerId: document.ownerId,
          actor: user,
          target: 'document',
          objectId: document.id,
          targetLabel: document.title,
          at: deps.now(),
        },
        [
          {
            verb: 'accepted an AI proposal',
            message: `accepted an AI proposal${by} in the document ${JSON.stringify(document.title)}`,
            level: 1,
          },
        ],
      );
    }
    this.send({
      type: 'tool_executing',
      tool_id: toolId,
      tool_name: proposal.toolName,
      content: accepted ? 'Recording the applied changes…' : 'Recording the rejection…',
    });
    this.send({
      type: 'tool_complete',
      tool_id: toolId,
      tool_name: proposal.toolName,
      status: proposal.status,
      content: accepted ? 'Changes applied successfully' : 'Proposed edit rejected.',
    });
  }
}

function defaultTimer(callback: () => void, ms: number) {
  const handle = setTimeout(callback, ms);
  handle.unref?.();
  return { cancel: () => clearTimeout(handle) };
}
