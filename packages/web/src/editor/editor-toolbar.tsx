import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  type JSX,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { moveMenuFocus } from '../ui/menu-keys';
import { moveToolbarFocus, setToolbarTabStop } from '../ui/toolbar-keys';
import { useMenuOpening } from '../ui/use-menu-opening';
import { applyBlockType, clearBlocksInEditor } from './block-commands.js';
import { ToolbarIcon, type ToolbarIconName } from './editor-icons.js';
import { changeIndent } from './paragraph-indent.js';
import {
  BLOCK_TYPES,
  type BlockTypeValue,
  INACTIVE_TOOLBAR,
  MARK_BUTTONS,
  type ToolbarState,
  toolbarStateOf,
} from './toolbar-state.js';

/** Keeps the editor's selection when a toolbar button is pressed with the mouse. */
const keepSelection = (event: { preventDefault(): void }) => event.preventDefault();

function ToolbarButton(props: {
  label: string;
  icon: ToolbarIconName;
  enabled: boolean;
  pressed?: boolean;
  onPress(): void;
}): JSX.Element {
  return (
    <button
      type="button"
      className={`btn btn-ghost btn-sm btn-square ${props.pressed ? 'btn-active' : ''}`}
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      disabled={!props.enabled}
      onMouseDown={keepSelection}
      onClick={props.onPress}
    >
      <ToolbarIcon name={props.icon} />
    </button>
  );
}

function Separator(): JSX.Element {
  return <span aria-hidden="true" className="mx-1 h-5 w-px bg-base-300" />;
}

/** The menu items that can be chosen now. */
function enabledItems(items: ReadonlyArray<HTMLButtonElement | null>): HTMLButtonElement[] {
  return items.filter((item): item is HTMLButtonElement => item !== null && !item.disabled);
}

/**
 * The "+ AI" insert menu (E22): New Section and New Subsection only ask the workspace, which creates
 * them on the server. New Subsection is enabled only with the cursor in a section or subsection.
 */
function InsertMenu(props: {
  enabled: boolean;
  canNewSubsection: boolean;
  onNewSection(): void;
  onNewSubsection(): void;
}): JSX.Element {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemsRef = useRef<Array<HTMLButtonElement | null>>([]);
  const opening = useMenuOpening({ open, setOpen, items: () => enabledItems(itemsRef.current) });

  useEffect(() => {
    if (!open) return;
    const onOutside = (event: Event) => {
      if (!(event.target instanceof Node && rootRef.current?.contains(event.target))) setOpen(false);
    };
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);

  useEffect(() => {
    if (!props.enabled) setOpen(false);
  }, [props.enabled]);

  const choose = (action: () => void) => {
    setOpen(false);
    buttonRef.current?.focus();
    action();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    moveMenuFocus(event, enabledItems(itemsRef.current), () => setOpen(false));
  };

  const items = [
    { label: 'New Section', enabled: true, action: props.onNewSection },
    { label: 'New Subsection', enabled: props.canNewSubsection, action: props.onNewSubsection },
  ];

  return (
    <div ref={rootRef} className={`dropdown ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-primary btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={!props.enabled}
        onMouseDown={keepSelection}
        onClick={opening.onClick}
        onKeyDown={opening.onKeyDown}
      >
        + AI
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label="Insert"
          tabIndex={-1}
          className="dropdown-content z-40 mt-2 w-48 rounded-box bg-base-200 p-2 shadow-lg"
          onKeyDown={onMenuKeyDown}
        >
          <ul role="none" className="menu w-full p-0">
            {items.map((item, index) => (
              <li key={item.label} role="none" className={item.enabled ? undefined : 'menu-disabled'}>
                <button
                  ref={(element) => {
                    itemsRef.current[index] = element;
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  disabled={!item.enabled}
                  aria-disabled={!item.enabled}
                  onClick={() => choose(item.action)}
                >
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** Whether a key event is Alt+F10, the usual "go to the toolbar" key of rich-text editors. */
function isToolbarShortcut(event: globalThis.KeyboardEvent): boolean {
  return event.key === 'F10' && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
}

/**
 * The toolbar's keyboard (E20a): one tab stop (roving tabindex, on the control used last while it is
 * enabled), Alt+F10 in the editor focuses that stop, Escape in the toolbar goes back to the editor.
 * The tab stop is set again after every render, since the controls' enabled state changes with the cursor.
 */
function useToolbarKeyboard(editor: Editor | null) {
  const toolbarRef = useRef<HTMLDivElement>(null);
  const lastUsed = useRef<Element | null>(null);

  useLayoutEffect(() => {
    if (toolbarRef.current) setToolbarTabStop(toolbarRef.current, lastUsed.current);
  });

  useEffect(() => {
    if (editor === null) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const toolbar = toolbarRef.current;
      if (!isToolbarShortcut(event) || toolbar === null || !editor.isInitialized || editor.isDestroyed)
        return;
      if (!(event.target instanceof Node && editor.view.dom.contains(event.target))) return;
      const stop = setToolbarTabStop(toolbar, lastUsed.current);
      if (stop === null) return;
      event.preventDefault();
      stop.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [editor]);

  const onFocus = (event: { target: EventTarget; currentTarget: HTMLDivElement }) => {
    const { target } = event;
    if (!(target instanceof HTMLElement) || target.closest('[role="menu"]') !== null) return;
    lastUsed.current = target;
    setToolbarTabStop(event.currentTarget, target);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      if (editor === null || (event.target instanceof Element && event.target.closest('[role="menu"]')))
        return;
      event.preventDefault();
      editor.commands.focus();
      return;
    }
    moveToolbarFocus(event);
  };

  return { ref: toolbarRef, onFocus, onKeyDown };
}

/**
 * The editor toolbar of spec 001 §2 (SPEC.md E20–E22): "+ AI" insert menu, Undo, Redo, block type,
 * marks, lists, Clear Marks, Clear Nodes, Indent and Outdent. Its state comes from one
 * `useEditorState` selector, so it renders only when something it shows changes.
 */
export function EditorToolbar(props: {
  editor: Editor | null;
  onNewSection(): void;
  onNewSubsection(): void;
  disabled?: boolean;
}): JSX.Element {
  const { editor } = props;
  const selected = useEditorState({
    editor,
    selector: ({ editor: current }) => (current === null ? INACTIVE_TOOLBAR : toolbarStateOf(current)),
  });
  const state: ToolbarState =
    props.disabled === true || editor === null ? INACTIVE_TOOLBAR : (selected ?? INACTIVE_TOOLBAR);
  const keyboard = useToolbarKeyboard(editor);
  const run = (command: (editor: Editor) => boolean) => () => {
    if (editor !== null) command(editor);
  };

  const controls: ReactNode[] = [
    <ToolbarButton
      key="undo"
      label="Undo"
      icon="undo"
      enabled={state.canUndo}
      onPress={run((current) => current.chain().focus().undo().run())}
    />,
    <ToolbarButton
      key="redo"
      label="Redo"
      icon="redo"
      enabled={state.canRedo}
      onPress={run((current) => current.chain().focus().redo().run())}
    />,
  ];

  return (
    <div
      ref={keyboard.ref}
      role="toolbar"
      aria-label="Editor toolbar"
      aria-keyshortcuts="Alt+F10"
      className="pw-toolbar flex flex-wrap items-center gap-1 border-b border-base-300 bg-base-100 px-2 py-1"
      onFocus={keyboard.onFocus}
      onKeyDown={keyboard.onKeyDown}
    >
      <InsertMenu
        enabled={props.disabled !== true && editor !== null && (selected?.editable ?? false)}
        canNewSubsection={state.canNewSubsection}
        onNewSection={props.onNewSection}
        onNewSubsection={props.onNewSubsection}
      />
      <Separator />
      {controls}
      <Separator />
      <select
        aria-label="Block type"
        className="select select-sm w-36"
        disabled={!state.formatting}
        value={state.blockType}
        onChange={(event) => {
          const value = event.target.value;
          const choice = BLOCK_TYPES.find((option) => option.value === value);
          if (editor !== null && choice !== undefined) applyBlockType(editor, choice.value as BlockTypeValue);
        }}
      >
        {BLOCK_TYPES.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Separator />
      {MARK_BUTTONS.map(({ mark, label }) => (
        <ToolbarButton
          key={mark}
          label={label}
          icon={mark}
          enabled={state.marks[mark].enabled}
          pressed={state.marks[mark].active}
          onPress={run((current) => current.chain().focus().toggleMark(mark).run())}
        />
      ))}
      <ToolbarButton
        label="Clear Marks"
        icon="clearMarks"
        enabled={state.canClearMarks}
        onPress={run((current) => current.chain().focus().unsetAllMarks().run())}
      />
      <Separator />
      <ToolbarButton
        label="Bulleted List"
        icon="bulletList"
        enabled={state.bulletList.enabled}
        pressed={state.bulletList.active}
        onPress={run((current) => current.chain().focus().toggleList('bulletList', 'listItem').run())}
      />
      <ToolbarButton
        label="Numbered List"
        icon="orderedList"
        enabled={state.orderedList.enabled}
        pressed={state.orderedList.active}
        onPress={run((current) => current.chain().focus().toggleList('orderedList', 'listItem').run())}
      />
      <ToolbarButton
        label="Clear Nodes"
        icon="clearNodes"
        enabled={state.canClearNodes}
        onPress={run(clearBlocksInEditor)}
      />
      <Separator />
      <ToolbarButton
        label="Outdent"
        icon="outdent"
        enabled={state.canOutdent}
        onPress={run((current) =>
          current
            .chain()
            .focus()
            .command(({ state: now, dispatch }) => changeIndent(now, dispatch, -1))
            .run(),
        )}
      />
      <ToolbarButton
        label="Indent"
        icon="indent"
        enabled={state.canIndent}
        onPress={run((current) =>
          current
            .chain()
            .focus()
            .command(({ state: now, dispatch }) => changeIndent(now, dispatch, 1))
            .run(),
        )}
      />
    </div>
  );
}
