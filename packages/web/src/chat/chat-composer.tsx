import type { ChatSession } from '@planwright/sdk';
import { type FormEvent, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { ChatPanelModel } from './chat-panel-model';
import { isSendKey } from './chat-panel-rules';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';
import { useSessionField } from './use-session-field';

/** The files the upload takes (contract 1c: the server reads these). */
const ACCEPTED_FILES = '.md,.markdown,.txt,.docx';

/**
 * K9–K11: the textarea ("Let's plan"; Enter sends, Shift+Enter is a new line), Send and Stop, the Web Search and
 * Deep Research toggles and the file upload with a removable chip per attached file. The text typed lives here,
 * so typing re-renders nothing else.
 */
export function ChatComposer({ model, session }: { model: ChatPanelModel; session: ChatSession }) {
  const state = useSyncExternalStore(model.subscribe, model.getSnapshot);
  const loading = useSessionField(session, 'loading');
  const [text, setText] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const fileId = useId();

  const send = () => {
    if (text.trim() === '' || loading) return;
    if (model.send(text).ok) setText('');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  return (
    <form className="flex flex-col gap-2 border-t border-base-300 p-3" onSubmit={onSubmit}>
      {(state.attachments.length > 0 || state.attaching) && (
        <ul className="flex flex-wrap gap-1" aria-label={TEXTS.attach}>
          {state.attachments.map((file, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: stateless chips, and one file may be attached twice.
              key={`${index}-${file.name}`}
              className="badge badge-outline gap-1"
              data-testid="chat-attachment"
              title={`${TEXTS.characters(file.characters)}${file.truncated ? ` ${TEXTS.truncated}` : ''}`}
            >
              <span className="max-w-[12rem] truncate" dir="auto">
                {file.name}
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-circle"
                aria-label={TEXTS.removeAttachment(file.name)}
                onClick={() => model.removeAttachment(index)}
              >
                ×
              </button>
            </li>
          ))}
          {state.attaching && (
            <li role="status" className="badge badge-ghost gap-1">
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              {TEXTS.attaching}
            </li>
          )}
        </ul>
      )}
      <textarea
        className="textarea textarea-bordered min-h-20 w-full resize-y"
        placeholder={TEXTS.placeholder}
        aria-label={TEXTS.message}
        dir="auto"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (!isSendKey({ ...event, isComposing: event.nativeEvent.isComposing })) return;
          event.preventDefault();
          send();
        }}
      />
      <div className="flex flex-wrap items-center gap-2">
        {[
          { label: TEXTS.webSearch, checked: state.webSearch, set: (on: boolean) => model.setWebSearch(on) },
          {
            label: TEXTS.deepResearch,
            checked: state.deepResearch,
            set: (on: boolean) => model.setDeepResearch(on),
          },
        ].map((toggle) => (
          <label
            key={toggle.label}
            className="inline-flex cursor-pointer items-center gap-1 whitespace-nowrap text-xs"
          >
            <input
              type="checkbox"
              className="toggle toggle-xs"
              checked={toggle.checked}
              onChange={(event) => toggle.set(event.target.checked)}
            />
            {toggle.label}
          </label>
        ))}
        {searchUnavailable(state) && (
          <p role="note" className="w-full text-xs text-warning-content" data-testid="search-unavailable">
            {TEXTS.searchUnavailable}
          </p>
        )}
        <label htmlFor={fileId} className="sr-only">
          {TEXTS.uploadFile}
        </label>
        <input
          ref={fileRef}
          id={fileId}
          type="file"
          className="hidden"
          accept={ACCEPTED_FILES}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void model.attach(file);
          }}
        />
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          disabled={state.attaching}
          onClick={() => fileRef.current?.click()}
        >
          {TEXTS.attach}
        </button>
        <span className="flex-1" />
        <button type="button" className="btn btn-sm" disabled={!loading} onClick={() => model.stop()}>
          {TEXTS.stop}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={loading || text.trim() === ''}>
          {TEXTS.send}
        </button>
      </div>
    </form>
  );
}

/**
 * K9: a search option is on but the server has no search service (or no model) to honour it: said before
 * sending, not only in the answer's note.
 */
function searchUnavailable(state: {
  webSearch: boolean;
  deepResearch: boolean;
  providerInfo: { supports: { webAccess: boolean; research: boolean } } | null;
}): boolean {
  const supports = state.providerInfo?.supports;
  if (supports === undefined) return false;
  return (state.webSearch && !supports.webAccess) || (state.deepResearch && !supports.research);
}
