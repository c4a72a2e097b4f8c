import type { ChatScope, ChatSession, DocumentDetail, Section, Subsection } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import { terminalText } from '../display/terminal-text.js';
import { openSignedInSession } from '../session/signed-in-call.js';
import { withNotFound } from '../workspace/not-found.js';
import { nodeSocketFactory } from './node-socket.js';
import { findSection, findSubsection } from './outline-target.js';
import type { DocumentAccess } from './proposal-decision.js';

/** What `--section` and `--subsection` point the chat at (T41). */
export interface ChatTarget {
  readonly document: DocumentDetail;
  readonly section: Section | null;
  readonly subsection: Subsection | null;
  readonly scope: ChatScope;
}

/** The part of a `planwright chat` command line that says where to chat. */
export interface ChatPlace {
  server?: string | undefined;
  uuid: string;
  section?: string | undefined;
  subsection?: string | undefined;
}

/**
 * The scope `--section`/`--subsection` name in `document` (T41): a subsection alone finds its section; both
 * look for the subsection in that section; neither is the whole document.
 */
export function chatTarget(document: DocumentDetail, place: ChatPlace): ChatTarget {
  const within =
    place.section === undefined
      ? undefined
      : findSection(document.sections, place.section, place.uuid).section;
  const found =
    place.subsection === undefined
      ? undefined
      : findSubsection(document.sections, place.subsection, place.uuid, within);
  const section = found?.section ?? within ?? null;
  const subsection = found?.subsection ?? null;
  return {
    document,
    section,
    subsection,
    scope: {
      documentUuid: document.uuid,
      sectionUuid: section?.uuid ?? null,
      subsectionUuid: subsection?.uuid ?? null,
    },
  };
}

/** `Acme plan > Executive Summary > Overview`, safe for the terminal (T42). */
export function contextLabel(target: ChatTarget): string {
  const parts = [
    target.document.title.trim() || 'Untitled Document',
    target.section ? target.section.title.trim() || 'Untitled Section' : null,
    target.subsection ? target.subsection.title.trim() || 'Untitled Subsection' : null,
  ];
  return parts
    .filter((part): part is string => part !== null)
    .map(terminalText)
    .join(' > ');
}

/** Reconnect attempts in a row before a terminal's chat gives up (the SDK's old bound: 1 + 2 + 4 + 8 + 16 s). */
export const CLI_RECONNECT_ATTEMPTS = 5;

/** An opened (not yet connected) chat with what the command needs around it. */
export interface OpenedChat {
  readonly chat: ChatSession;
  readonly target: ChatTarget;
  readonly access: DocumentAccess;
  /** The server the chat talks to, for error messages. */
  readonly serverUrl: string;
}

/**
 * Loads the document, resolves the scope and makes a `ChatSession` over `ws` signed in with the stored
 * session (T40, T41). Document calls go through the signed-in session, so an expired session or a server
 * that is gone are reported as everywhere else.
 */
export async function openChat(io: CliIo, place: ChatPlace): Promise<OpenedChat> {
  const sdk = await import('@planwright/sdk');
  const session = await openSignedInSession(io, place.server);
  const load = () =>
    withNotFound(
      () => session.call((client) => client.documents.get(place.uuid)),
      sdk.DOCUMENT_TEXTS.notFound,
      'Run `planwright documents list` to see your documents.',
    );
  const target = chatTarget(await load(), place);
  // The SDK reconnects for as long as a page is visible (C50); a command must end, so a terminal's chat stops
  // after CLI_RECONNECT_ATTEMPTS attempts in a row (about 31 s) and says it cannot reach the server (T43).
  let attempts = 0;
  const chat = await session.call(async (client) =>
    client.chatSession(target.scope, {
      socketFactory: nodeSocketFactory,
      // The session's own warnings would scribble over the screen; what matters shows in its snapshot.
      logger: { warn: () => {}, error: () => {} },
      visibility: { isVisible: () => ++attempts <= CLI_RECONNECT_ATTEMPTS, onVisible: () => () => {} },
    }),
  );
  chat.subscribe(() => {
    if (chat.getSnapshot().status === 'connected') attempts = 0;
  });
  return {
    chat,
    target,
    serverUrl: session.server.url,
    access: {
      load,
      save: (changes, options) =>
        session.call((client) => client.documents.update(place.uuid, changes, options)),
    },
  };
}
