import {
  BLUEPRINT_SAVE_DEBOUNCE_MS,
  mcpUrlError,
  RevisionConflictError,
  type SaveClock,
  SaveController,
  type Section,
  type SectionSettings,
} from '@planwright/sdk';
import { staleWriteMessage } from '../api/write-failure';
import type { PlanWorkspace } from './plan-workspace';
import { SnapshotStore } from './snapshot-store';
import { SETTINGS_PANEL_TEXTS } from './workspace-texts';

/** The section or subsection whose settings are shown. */
export interface SettingsTarget {
  sectionUuid: string;
  /** `null` for the section itself. */
  subsectionUuid: string | null;
}

/** The uuid the settings belong to: the subsection's, else the section's. */
export function targetUuid(target: SettingsTarget): string {
  return target.subsectionUuid ?? target.sectionUuid;
}

/** The stored settings of `target` in `sections`; `null` when it is not there (yet). */
export function settingsOf(sections: readonly Section[], target: SettingsTarget): SectionSettings | null {
  const section = sections.find((candidate) => candidate.uuid === target.sectionUuid);
  if (!section) return null;
  const part =
    target.subsectionUuid === null
      ? section
      : section.subsections.find((candidate) => candidate.uuid === target.subsectionUuid);
  if (!part) return null;
  return {
    developer_prompt: part.developer_prompt,
    user_hint: part.user_hint,
    tool_mode: part.tool_mode,
    mcp_url: part.mcp_url,
  };
}

const EMPTY_SETTINGS: SectionSettings = Object.freeze({
  developer_prompt: '',
  user_hint: '',
  tool_mode: '',
  mcp_url: '',
});

/**
 * B6: the MCP URL's problem that blocks saving: a URL that is not http(s), or one set without MCP. An empty
 * URL with MCP on is saved (the server keeps `''` until the URL is known) and only hinted at.
 */
export function blockingMcpUrlError(settings: SectionSettings): string | undefined {
  if (settings.tool_mode === 'mcp' && settings.mcp_url.trim() === '') return undefined;
  return mcpUrlError(settings.tool_mode, settings.mcp_url);
}

/**
 * B6: a change of the form, applied: leaving MCP clears the URL (the server stores `''` for other modes and
 * refuses a URL with them), and the URL typed is put back if MCP is chosen again in the same visit.
 */
export function applySettingsChange(
  current: SectionSettings,
  change: Partial<SectionSettings>,
  rememberedUrl: string,
): SectionSettings {
  const next = { ...current, ...change };
  if (change.tool_mode !== undefined && change.tool_mode !== current.tool_mode) {
    if (next.tool_mode !== 'mcp') next.mcp_url = '';
    else if (next.mcp_url === '') next.mcp_url = rememberedUrl;
  }
  return next;
}

export interface SettingsFormSnapshot {
  /** What the form shows (saved or not). */
  values: SectionSettings;
  /** What is saved: the values as they were when last valid (B6: an invalid MCP URL is never sent). */
  valid: SectionSettings;
  /** Why the values are not being saved (an MCP URL that is no http(s) URL). */
  invalid: string | null;
}

/** A settings write the server refused as stale: its words, and no controller conflict (the editor's save will say). */
class StaleSettingsWrite extends Error {}

/**
 * B5: one section's or subsection's settings form, saved like the editor's content — an own `SaveController`
 * (800 ms debounce, one write at a time, retries, the badge's statuses) — whose writes go through the
 * blueprint's content controller as writes aside (save SPEC S26), so they never make the editor's next save
 * a conflict.
 */
export class SettingsForm extends SnapshotStore<SettingsFormSnapshot> {
  readonly controller: SaveController<SectionSettings>;
  private rememberedUrl: string;

  constructor(
    private readonly workspace: PlanWorkspace,
    readonly target: SettingsTarget,
    initial: SectionSettings,
    clock?: SaveClock,
  ) {
    super({ values: initial, valid: initial, invalid: blockingMcpUrlError(initial) ?? null });
    this.rememberedUrl = initial.mcp_url;
    const { resource, uuid } = workspace;
    const { sectionUuid, subsectionUuid } = target;
    this.controller = new SaveController<SectionSettings>({
      read: () => this.getSnapshot().valid,
      write: async (values, { keepalive }) => {
        // A part pasted in a moment ago exists on the server only once the content is saved.
        if (workspace.controller.getSnapshot().dirty && !(await workspace.controller.flush())) {
          throw new Error(SETTINGS_PANEL_TEXTS.contentNotSaved);
        }
        try {
          await workspace.controller.writeAside(async ({ ifMatch, signal }) => {
            // Page hide: the request may outlive the page, as the content's own save does.
            const options = { ...(ifMatch === null ? {} : { ifMatch }), signal, keepalive };
            const answer =
              subsectionUuid === null
                ? await resource.sections.update(uuid, sectionUuid, values, options)
                : await resource.sections.subsections.update(
                    uuid,
                    sectionUuid,
                    subsectionUuid,
                    values,
                    options,
                  );
            return { revision: answer.revision, value: undefined };
          });
        } catch (error) {
          // Someone else changed the blueprint: the editor's own save meets the same 412 and offers the choice.
          if (RevisionConflictError.isInstance(error))
            throw new StaleSettingsWrite(staleWriteMessage('blueprint'));
          throw error;
        }
        // The blueprint's revision belongs to the content controller; this one never sends If-Match itself.
        return { revision: null };
      },
      debounceMs: BLUEPRINT_SAVE_DEBOUNCE_MS,
      ...(clock ? { clock } : {}),
    });
    this.controller.loaded(initial, null);
  }

  /** A field changed: shown at once (the hint in the editor too), saved after the debounce when valid. */
  change(change: Partial<SectionSettings>): void {
    const values = applySettingsChange(this.getSnapshot().values, change, this.rememberedUrl);
    if (values.mcp_url !== '') this.rememberedUrl = values.mcp_url;
    const invalid = blockingMcpUrlError(values) ?? null;
    this.update(invalid === null ? { values, valid: values, invalid } : { values, invalid });
    this.workspace.setSettings(targetUuid(this.target), values);
    if (invalid === null) this.controller.edit();
  }

  /**
   * The server's settings were read again (a structure call, a reload): taken when the form holds nothing of
   * its own, else the user's values stay and are saved over them.
   */
  sync(sections: readonly Section[]): void {
    const stored = settingsOf(sections, this.target);
    const save = this.controller.getSnapshot();
    if (stored === null || save.dirty || save.inFlight) return;
    if (JSON.stringify(stored) === JSON.stringify(this.getSnapshot().values)) return;
    this.rememberedUrl = stored.mcp_url || this.rememberedUrl;
    this.update({ values: stored, valid: stored, invalid: blockingMcpUrlError(stored) ?? null });
    this.controller.loaded(stored, null);
  }

  dispose(): void {
    this.controller.dispose();
  }
}

/**
 * B5: the settings forms of one blueprint: the selected part's, plus any earlier one still saving. Selecting
 * another part saves the previous one at once; it is let go once saved (or kept, with its failure, until the
 * page goes: nothing typed is dropped silently).
 */
export class BlueprintSettings {
  private readonly forms = new Map<string, SettingsForm>();
  private readonly holds = new Map<SettingsForm, number>();
  private disposed = false;

  constructor(
    private readonly workspace: PlanWorkspace,
    private readonly clock?: SaveClock,
  ) {}

  /** The form of `target`, made from the stored settings when there is none yet. */
  formFor(target: SettingsTarget): SettingsForm {
    const key = targetUuid(target);
    const existing = this.forms.get(key);
    if (existing) return existing;
    const stored = settingsOf(this.workspace.getSnapshot().sections, target) ?? EMPTY_SETTINGS;
    const form = new SettingsForm(this.workspace, target, stored, this.clock);
    this.forms.set(key, form);
    return form;
  }

  /**
   * The form is shown; the returned function says it no longer is: then it saves at once and goes once nothing
   * of it is unsaved and nobody shows it again (React's development double mount shows it twice).
   */
  hold(form: SettingsForm): () => void {
    this.holds.set(form, (this.holds.get(form) ?? 0) + 1);
    return () => {
      this.holds.set(form, (this.holds.get(form) ?? 1) - 1);
      void form.controller.flush().then((saved) => {
        if (this.disposed || !saved || (this.holds.get(form) ?? 0) > 0) return;
        const key = targetUuid(form.target);
        if (this.forms.get(key) === form && !form.controller.getSnapshot().dirty) {
          this.forms.delete(key);
          this.holds.delete(form);
          form.dispose();
        }
      });
    };
  }

  /** The settings were read again from the server. */
  sync(sections: readonly Section[]): void {
    for (const form of this.forms.values()) form.sync(sections);
  }

  /** Every form's controller, for the page's "unsaved work" checks and flushes. */
  controllers(): SaveController<SectionSettings>[] {
    return [...this.forms.values()].map((form) => form.controller);
  }

  dispose(): void {
    this.disposed = true;
    for (const form of this.forms.values()) form.dispose();
    this.forms.clear();
  }
}
