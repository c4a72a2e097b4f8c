import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import type { PlanWorkspace } from './plan-workspace';
import { structureFailureMessage } from './structure-actions';
import { GlobalSystemPrompt } from './system-prompt-dialog';
import { BLUEPRINT_SYSTEM_PROMPT_TEXTS as TEXTS } from './workspace-texts';

/**
 * B7: File › System Prompt in the blueprint editor: the global system prompt read-only above (administrators
 * manage it, spec 001 §2, §6), and the blueprint's own prompt, editable. Save writes it (`PATCH blueprints/
 * {uuid}/` with `system_prompt`) as a write aside of the editor's autosave (save SPEC S26), so the editor's next
 * save is not refused as stale; a failure keeps the dialog open with the text typed.
 */
export function BlueprintSystemPromptDialog({
  workspace,
  onClose,
}: {
  workspace: PlanWorkspace;
  onClose: () => void;
}) {
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const { systemPrompt: stored, canEdit } = workspace.getSnapshot();
  const [draft, setDraft] = useState(stored);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const helpId = useId();
  const globalId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (draft === stored) {
      onClose();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const { client, uuid } = workspace;
      const answer = await workspace.controller.writeAside(async ({ ifMatch, signal }) => {
        const written = await client.blueprints.update(
          uuid,
          { system_prompt: draft },
          { ...(ifMatch === null ? {} : { ifMatch }), signal },
        );
        return { revision: written.revision, value: written };
      });
      workspace.setSystemPrompt(answer.system_prompt);
      onClose();
    } catch (failure) {
      setError(structureFailureMessage(failure, TEXTS.failed, 'blueprint'));
      setSaving(false);
    }
  };

  return (
    <Dialog title={TEXTS.heading} onClose={onClose} busy={saving} initialFocus={fieldRef}>
      <form className="mt-3 flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
        <div className="flex flex-col gap-1">
          <span id={globalId} className="text-sm font-medium">
            {TEXTS.globalPrompt}
          </span>
          <p className="text-xs opacity-80">{TEXTS.globalPromptHelp}</p>
          <GlobalSystemPrompt label={{ by: globalId }} className="h-40 opacity-80" />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${helpId}-field`} className="text-sm font-medium">
            {TEXTS.blueprintPrompt}
          </label>
          <p id={helpId} className="text-xs opacity-80">
            {TEXTS.blueprintPromptHelp}
          </p>
          <textarea
            ref={fieldRef}
            id={`${helpId}-field`}
            name="system_prompt"
            dir="auto"
            aria-describedby={helpId}
            className="textarea h-40 w-full text-sm"
            value={draft}
            disabled={saving}
            readOnly={!canEdit}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        {error && <Alert kind="error">{error}</Alert>}
        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={saving}>
            {TEXTS.cancel}
          </button>
          {canEdit && (
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? TEXTS.saving : TEXTS.save}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
