import type { ChatMessage } from '@planwright/sdk';
import { Dialog } from '../ui/dialog';
import { ChatMarkdown } from './chat-markdown';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';

/** K17: a message in full, in a dialog (AI messages as Markdown, with their Insert buttons). */
export function MessagePreviewDialog({
  message,
  onInsert,
  onClose,
}: {
  message: ChatMessage;
  onInsert: (code: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog title={TEXTS.preview[message.role]} onClose={onClose}>
      <div
        className="mt-3 max-h-[60vh] overflow-y-auto text-sm"
        dir="auto"
        data-testid="chat-message-preview"
      >
        {message.role === 'ai' ? (
          <ChatMarkdown content={message.content} onInsert={onInsert} />
        ) : (
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.content}</p>
        )}
      </div>
      <div className="modal-action">
        <button type="button" className="btn" onClick={onClose}>
          {TEXTS.close}
        </button>
      </div>
    </Dialog>
  );
}
