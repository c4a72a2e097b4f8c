import { CHAT_TEXTS, MAX_ATTACHMENT_CHARACTERS, parseIncomingFrame } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { frames, setup } from './harness.js';

const provider = { name: 'offline', model: 'drafter', label: 'Offline drafts (no AI model)', offline: true };

function connected() {
  const harness = setup();
  harness.session.connect();
  harness.clock.advance(0);
  return harness;
}

describe('C42 attachments', () => {
  it('C42: send carries the attachments on the message frame; the transcript keeps names and lengths', () => {
    const { session, server } = connected();
    const result = session.send('Read these', {
      attachments: [
        { name: 'notes.md', content: '# Notes' },
        { name: 'plan.txt', content: 'x'.repeat(MAX_ATTACHMENT_CHARACTERS) },
      ],
    });
    expect(result.ok).toBe(true);
    expect(frames(server, 'message')[0]).toMatchObject({
      message: 'Read these',
      attachments: [
        { name: 'notes.md', content: '# Notes' },
        { name: 'plan.txt', content: 'x'.repeat(MAX_ATTACHMENT_CHARACTERS) },
      ],
    });
    expect(session.getSnapshot().messages[0]?.metadata.attachments).toEqual([
      { name: 'notes.md', characters: 7 },
      { name: 'plan.txt', characters: MAX_ATTACHMENT_CHARACTERS },
    ]);
  });

  it('C42: no attachments, no attachments field', () => {
    const { session, server } = connected();
    session.send('Plain', { attachments: [] });
    expect(frames(server, 'message')[0]).not.toHaveProperty('attachments');
    expect(session.getSnapshot().messages[0]?.metadata).not.toHaveProperty('attachments');
  });

  it('C42: more than 3, a blank or over-long name, or an over-long text is refused and nothing is sent', () => {
    const { session, server } = connected();
    const file = { name: 'a.md', content: 'a' };
    const refused = [
      [file, file, file, file],
      [{ name: '  ', content: 'a' }],
      [{ name: 'n'.repeat(256), content: 'a' }],
      [{ name: 'a.md', content: 'x'.repeat(MAX_ATTACHMENT_CHARACTERS + 1) }],
      [{ name: 'a.md', content: 42 }] as unknown as { name: string; content: string }[],
    ];
    for (const attachments of refused) {
      expect(session.send('Hi', { attachments })).toEqual({ ok: false, reason: 'invalid_attachment' });
    }
    expect(frames(server, 'message')).toEqual([]);
    expect(session.getSnapshot().messages).toEqual([]);
  });

  it('C42: hostile names and texts travel unchanged', () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const { session, server } = connected();
    const names = hostile.filter((s) => s.trim() !== '' && s.length <= 255).slice(0, 3);
    session.send('Hostile', { attachments: names.map((name) => ({ name, content: hostile.join('\n') })) });
    const sent = frames(server, 'message')[0] as { attachments: { name: string }[] };
    expect(sent.attachments.map((a) => a.name)).toEqual(names);
  });

  it('C42: history entries carry attachment names and lengths; malformed ones are dropped, not the entry', () => {
    const { session, server, clock } = connected();
    clock.advance(500);
    server.last.send({
      type: 'history_response',
      chat_id: 'chat-1',
      messages: [
        { id: 'm1', role: 'user', content: 'q', attachments: [{ name: 'a.md', characters: 12 }] },
        { id: 'm2', role: 'user', content: 'r', attachments: 'nope' },
        { id: 'm3', role: 'ai', content: 'a' },
      ],
    });
    const messages = session.getSnapshot().messages;
    expect(messages.map((m) => m.metadata.attachments)).toEqual([
      [{ name: 'a.md', characters: 12 }],
      undefined,
      undefined,
    ]);
  });
});

describe('C43 chat id and provider', () => {
  it('C43: authenticated sets chatId and the provider label; ai frames update the provider; switchTo resets', () => {
    const { session, server, clock } = connected();
    expect(session.getSnapshot()).toMatchObject({ chatId: null, provider: null });
    server.last.send({ type: 'authenticated', chat_id: 'chat-1', provider });
    expect(session.getSnapshot()).toMatchObject({ chatId: 'chat-1', provider: provider.label });
    session.send('Hi');
    server.last.send({
      type: 'ai',
      content: 'Hel',
      message_id: 'm1',
      provider: { ...provider, label: 'GPT' },
    });
    expect(session.getSnapshot().provider).toBe('GPT');
    session.switchTo({ sectionUuid: 'sec-2' });
    expect(session.getSnapshot()).toMatchObject({ chatId: null, provider: null });
    clock.advance(0);
    server.last.send({ type: 'authenticated', chat_id: null, provider: 'offline' });
    expect(session.getSnapshot()).toMatchObject({ chatId: null, provider: 'offline' });
  });

  it('C43: the chat made by a first message is read from the human echo and from history', () => {
    const { session, server, clock } = connected();
    server.last.send({ type: 'authenticated', chat_id: null, provider });
    session.send('First');
    server.last.send({ type: 'human', id: 'm1', content: 'First', client_id: 'id-1', chat_id: 'chat-9' });
    expect(session.getSnapshot().chatId).toBe('chat-9');
    clock.advance(500);
    server.last.send({ type: 'history_response', chat_id: 'chat-9', messages: [] });
    expect(session.getSnapshot().chatId).toBe('chat-9');
  });

  it('C43: a malformed provider or chat id is ignored, the frame still counts', () => {
    expect(parseIncomingFrame('{"type":"authenticated","chat_id":{"x":1},"provider":{"label":5}}')).toEqual({
      type: 'authenticated',
      chatId: null,
      provider: null,
    });
  });
});

describe('C44 C45 proposals with history', () => {
  it('C44: message_id and a decided status come with the frame; decided ones ask nothing', () => {
    const { session, server } = connected();
    server.last.send({
      type: 'tool_proposal',
      tool_id: 't1',
      tool_name: 'propose_full_subsection',
      payload: {},
      message_id: 'm1',
      status: 'accepted',
    });
    server.last.send({
      type: 'tool_proposal',
      tool_id: 't2',
      tool_name: 'propose_partial_edits',
      payload: { edits: [] },
      message_id: 'm1',
      status: 'rejected',
    });
    expect(session.getSnapshot().toolExecution.state).toBe('idle');
    server.last.send({
      type: 'tool_proposal',
      tool_id: 't3',
      tool_name: 'propose_partial_edits',
      payload: {},
    });
    expect(session.getSnapshot().proposals.map((p) => [p.toolId, p.messageId, p.status, p.message])).toEqual([
      ['t1', 'm1', 'accepted', CHAT_TEXTS.changesApplied],
      ['t2', 'm1', 'rejected', CHAT_TEXTS.proposalRejected],
      ['t3', null, 'pending', null],
    ]);
    expect(session.getSnapshot().toolExecution.state).toBe('awaiting_approval');
  });

  it('C44: an unknown status reads as pending', () => {
    expect(
      parseIncomingFrame(
        '{"type":"tool_proposal","tool_id":"t","tool_name":"propose_partial_edits","payload":{},"status":"maybe"}',
      ),
    ).toMatchObject({ type: 'tool_proposal', status: 'pending', messageId: null });
  });

  it('C45: a rejected proposal may be accepted later; an accepted one is final', () => {
    const { session, server } = connected();
    for (const [id, status] of [
      ['t1', 'rejected'],
      ['t2', 'accepted'],
    ] as const) {
      server.last.send({
        type: 'tool_proposal',
        tool_id: id,
        tool_name: 'propose_partial_edits',
        payload: {},
        status,
      });
    }
    expect(session.rejectProposal('t1')).toBe(false);
    expect(session.acceptProposal('t1')).toBe(true);
    expect(session.acceptProposal('t1')).toBe(false);
    expect(session.rejectProposal('t1')).toBe(false);
    expect(session.acceptProposal('t2')).toBe(false);
    expect(session.rejectProposal('t2')).toBe(false);
    expect(session.getSnapshot().proposals.map((p) => [p.status, p.message])).toEqual([
      ['accepted', CHAT_TEXTS.changesApplied],
      ['accepted', CHAT_TEXTS.changesApplied],
    ]);
    expect(frames(server, 'tool_approval').map((f) => [f.tool_id, f.action])).toEqual([['t1', 'accept']]);
  });
});
