import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { BLUEPRINTS_PATH, blueprintPath } from '../blueprints/blueprint-paths';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { BlueprintSettings } from './blueprint-settings';
import { BlueprintSettingsPanel } from './blueprint-settings-panel';
import { BlueprintSystemPromptDialog } from './blueprint-system-prompt-dialog';
import type { PlanWorkspace } from './plan-workspace';
import { PlanWorkspaceView, type WorkspaceVariant } from './plan-workspace-view';
import { BLUEPRINT_SPLIT } from './split-layout';
import { BLUEPRINT_WORKSPACE_TEXTS as TEXTS } from './workspace-texts';

/**
 * The blueprint editing workspace (spec 001 §2 "Blueprint editor layout"; SPEC.md B1–B8): the shared workspace
 * with no chat: a settings panel for the selected section or subsection at 70/30 (minimums 200 and 240 px),
 * Rename Blueprint ("Title cannot be empty") and the System Prompt dialog with the blueprint's own prompt; its
 * Export as .md says Markdown export is for documents (W35). No progress and no finalize: blueprints are templates.
 */
export function BlueprintWorkspaceView({ workspace }: { workspace: PlanWorkspace }) {
  const settings = useBlueprintSettings(workspace);
  if (!settings) return null;
  return <BlueprintWorkspace workspace={workspace} settings={settings} />;
}

/**
 * The blueprint's settings forms, made in an effect (not during render) so development's double mount gets a
 * fresh object instead of a disposed one; `null` until the effect has run.
 */
function useBlueprintSettings(workspace: PlanWorkspace): BlueprintSettings | null {
  const { clock } = useBrowserPorts();
  const [settings, setSettings] = useState<BlueprintSettings | null>(null);
  useEffect(() => {
    const created = new BlueprintSettings(workspace, clock);
    setSettings(created);
    return () => {
      created.dispose();
      setSettings((current) => (current === created ? null : current));
    };
  }, [workspace, clock]);
  return settings;
}

function BlueprintWorkspace({
  workspace,
  settings,
}: {
  workspace: PlanWorkspace;
  settings: BlueprintSettings;
}) {
  // A structure call or a reload read the settings again: forms with nothing of their own follow them.
  const { sections } = useSyncExternalStore(workspace.subscribe, workspace.getSnapshot);
  useEffect(() => settings.sync(sections), [settings, sections]);

  const variant = useMemo<WorkspaceVariant>(
    () => ({
      testId: 'blueprint-workspace',
      texts: {
        loading: TEXTS.loading,
        notFound: TEXTS.notFound,
        backToList: TEXTS.backToBlueprints,
        loadFailed: TEXTS.loadFailed,
        untitled: TEXTS.untitled,
        titleLabel: TEXTS.titleLabel,
        renameHeading: TEXTS.renameBlueprint,
        readOnly: TEXTS.readOnly,
      },
      list: { label: TEXTS.blueprints, path: BLUEPRINTS_PATH },
      detailPath: blueprintPath,
      split: BLUEPRINT_SPLIT,
      finalize: false,
      renameBlankCloses: false,
      // The File menu's exports are the shared view's (W35: Markdown says it is for documents).
      side: ({ workspace: opened, selection, outline }) => (
        <BlueprintSettingsPanel
          workspace={opened}
          settings={settings}
          selection={selection}
          outline={outline}
        />
      ),
      systemPromptDialog: (opened, onClose) => (
        <BlueprintSystemPromptDialog workspace={opened} onClose={onClose} />
      ),
    }),
    [settings],
  );
  const companions = useMemo(() => () => settings.controllers(), [settings]);

  return <PlanWorkspaceView workspace={workspace} variant={variant} companions={companions} />;
}
