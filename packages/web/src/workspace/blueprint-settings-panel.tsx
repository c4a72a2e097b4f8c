import { type DocumentOutline, TOOL_MODES, type ToolMode } from '@planwright/sdk';
import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { Alert } from '../ui/alert';
import { RETRY_TEXT } from '../ui/load-error';
import { SelectField } from '../ui/select-field';
import type { BlueprintSettings, SettingsForm } from './blueprint-settings';
import type { PlanWorkspace } from './plan-workspace';
import { saveFailureText } from './save-status';
import { SaveStatusBadge } from './save-status-badge';
import type { Selection } from './selection-url';
import { SidePanel } from './side-panel';
import { SETTINGS_PANEL_TEXTS as TEXTS } from './workspace-texts';

/** A labelled field with its help line and message tied to it. */
function Field({
  label,
  help,
  error,
  children,
}: {
  label: string;
  help?: string | undefined;
  error?: string | null | undefined;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [help ? helpId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {help && (
        <p id={helpId} className="text-xs opacity-80">
          {help}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * B4: the selected part's title, renamed through the same path as the sidebar's Rename (W17) when the field is
 * left or Enter is pressed; a blank or unchanged title goes back to the stored one.
 */
function TitleField({
  title,
  disabled,
  onRename,
}: {
  title: string;
  disabled: boolean;
  onRename: (title: string) => Promise<string | null>;
}) {
  const [draft, setDraft] = useState(title);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!editing) setDraft(title);
  }, [title, editing]);

  const commit = async () => {
    setEditing(false);
    const next = draft.trim();
    if (next === '' || next === title.trim()) {
      setDraft(title);
      setError(null);
      return;
    }
    setError(await onRename(next));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      event.currentTarget.blur();
    } else if (event.key === 'Escape') {
      setDraft(title);
      setEditing(false);
    }
  };
  return (
    <Field label={TEXTS.title} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name="title"
          dir="auto"
          className={`input w-full ${invalid ? 'input-error' : ''}`}
          value={draft}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setEditing(true);
            setDraft(event.target.value);
          }}
          onBlur={() => void commit()}
          onKeyDown={onKeyDown}
        />
      )}
    </Field>
  );
}

/** The two free-text settings, in the panel's order. */
const TEXT_SETTINGS = [
  { name: 'developer_prompt', label: TEXTS.developerPrompt, help: TEXTS.developerPromptHelp, height: 'h-32' },
  { name: 'user_hint', label: TEXTS.userHint, help: TEXTS.userHintHelp, height: 'h-24' },
] as const;

function SettingsFields({
  form,
  title,
  heading,
  busy,
  locked,
  onRename,
}: {
  form: SettingsForm;
  title: string;
  heading: string;
  busy: boolean;
  /** B9: shown, not changed. */
  locked: boolean;
  onRename: (title: string) => Promise<string | null>;
}) {
  const { values, invalid } = useSyncExternalStore(form.subscribe, form.getSnapshot);
  const save = useSyncExternalStore(form.controller.subscribe, form.controller.getSnapshot);
  const failure = save.status === 'error' && save.failure && !save.retry ? save.failure : null;
  const mcp = values.tool_mode === 'mcp';
  const mcpHelp = !mcp ? TEXTS.enableMcp : values.mcp_url.trim() === '' ? TEXTS.mcpUrlMissing : undefined;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{heading}</h3>
        {!locked && (
          <SaveStatusBadge
            snapshot={{ ...save, dirty: save.dirty || invalid !== null }}
            name={TEXTS.saveStatus}
          />
        )}
      </div>
      {failure && (
        <Alert kind="error">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>{`${TEXTS.saveFailed}: ${saveFailureText(failure)}`}</span>
            <button type="button" className="btn btn-xs" onClick={() => form.controller.retryNow()}>
              {RETRY_TEXT}
            </button>
          </div>
        </Alert>
      )}
      <fieldset disabled={locked} className="flex min-w-0 flex-col gap-4">
        <TitleField title={title} disabled={busy || locked} onRename={onRename} />
        {TEXT_SETTINGS.map(({ name, label, help, height }) => (
          <Field key={name} label={label} help={help}>
            {({ id, describedBy }) => (
              <textarea
                id={id}
                name={name}
                dir="auto"
                className={`textarea w-full text-sm ${height}`}
                value={values[name]}
                aria-describedby={describedBy}
                onChange={(event) => form.change({ [name]: event.target.value })}
              />
            )}
          </Field>
        ))}
        <SelectField<ToolMode>
          name="tool_mode"
          label={TEXTS.toolMode}
          value={values.tool_mode}
          options={TOOL_MODES}
          optionLabel={(mode) => TEXTS.toolModes[mode]}
          onChange={(tool_mode) => form.change({ tool_mode })}
        />
        <Field label={TEXTS.mcpUrl} help={mcpHelp} error={invalid}>
          {({ id, describedBy, invalid: isInvalid }) => (
            <input
              id={id}
              name="mcp_url"
              type="url"
              inputMode="url"
              className={`input w-full ${isInvalid ? 'input-error' : ''}`}
              placeholder={mcp ? TEXTS.mcpUrlPlaceholder : ''}
              value={values.mcp_url}
              disabled={!mcp}
              aria-invalid={isInvalid || undefined}
              aria-describedby={describedBy}
              onChange={(event) => form.change({ mcp_url: event.target.value })}
            />
          )}
        </Field>
      </fieldset>
    </div>
  );
}

/** The part of the outline a selection names, with its shown title. */
function selectedPart(outline: DocumentOutline, selection: Selection) {
  const section = outline.sections.find((candidate) => candidate.uuid === selection.sectionUuid);
  if (!section) return null;
  if (selection.subsectionUuid === null) {
    return {
      sectionUuid: section.uuid,
      subsectionUuid: null,
      title: section.title,
      kind: 'section' as const,
    };
  }
  const subsection = section.subsections.find((candidate) => candidate.uuid === selection.subsectionUuid);
  if (!subsection) return null;
  return {
    sectionUuid: section.uuid,
    subsectionUuid: subsection.uuid,
    title: subsection.title,
    kind: 'subsection' as const,
  };
}

/**
 * B3–B6: the blueprint editor's right panel: the settings of the selected section or subsection — title,
 * developer prompt, user hint, tool mode and MCP URL (enabled only for MCP, `Enable MCP to set a URL.`,
 * an http(s) URL) — saved as typed, 800 ms after the last change, with their own save status.
 */
export function BlueprintSettingsPanel({
  workspace,
  settings,
  selection,
  outline,
}: {
  workspace: PlanWorkspace;
  settings: BlueprintSettings;
  selection: Selection;
  outline: DocumentOutline;
}) {
  const structure = useSyncExternalStore(workspace.structure.subscribe, workspace.structure.getSnapshot);
  const { canEdit } = useSyncExternalStore(workspace.subscribe, workspace.getSnapshot);
  const part = selectedPart(outline, selection);
  const sectionUuid = part?.sectionUuid ?? null;
  const subsectionUuid = part?.subsectionUuid ?? null;
  const form = useMemo(
    () => (sectionUuid === null ? null : settings.formFor({ sectionUuid, subsectionUuid })),
    [settings, sectionUuid, subsectionUuid],
  );
  useEffect(() => (form ? settings.hold(form) : undefined), [settings, form]);

  const rename = async (title: string): Promise<string | null> => {
    if (!part) return null;
    const outcome =
      part.subsectionUuid === null
        ? await workspace.structure.renameSection(part.sectionUuid, title)
        : await workspace.structure.renameSubsection(part.sectionUuid, part.subsectionUuid, title);
    return outcome.ok || outcome.message === '' ? null : outcome.message;
  };

  return (
    <SidePanel heading={TEXTS.heading} bodyClassName="overflow-y-auto px-4 py-4">
      {form && part ? (
        <SettingsFields
          key={form.target.subsectionUuid ?? form.target.sectionUuid}
          form={form}
          title={part.title}
          heading={part.kind === 'section' ? TEXTS.sectionHeading : TEXTS.subsectionHeading}
          busy={structure.busy}
          locked={!canEdit}
          onRename={rename}
        />
      ) : (
        <p className="text-sm opacity-80">{TEXTS.none}</p>
      )}
    </SidePanel>
  );
}
