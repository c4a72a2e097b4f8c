/**
 * The editing workspace's words (spec 001 §2, §4, §8, §9). Texts the spec quotes are copied exactly; the
 * rest are ours, kept here so tests and the end-to-end suite read them from one place.
 */

import { BLUEPRINT_TEXTS, DOCUMENT_TEXTS } from '@planwright/sdk';
import { UNTITLED_SECTION, UNTITLED_SUBSECTION } from '@planwright/sdk/model';
import { BLUEPRINT_PAGE_TEXTS, BLUEPRINTS_PAGE_TEXTS } from '../blueprints/blueprint-page-texts';
import { DOCUMENT_PAGE_TEXTS } from '../documents/document-page-texts';

/** The title bar, menus and title editor (spec 001 §2 "Top bar"). */
export const TOP_BAR_TEXTS = {
  untitled: DOCUMENT_TEXTS.untitled,
  editor: 'Editor',
  file: 'File',
  rename: 'Rename',
  systemPrompt: 'System Prompt',
  /** Static placeholders with no behaviour (spec 001 §2). */
  staticMenus: ['Edit', 'View', 'Insert', 'Format', 'Tools', 'Help'],
  staticMenuHint: 'Coming soon',
  titleLabel: 'Document title',
  editTitleHint: 'Click to edit the title',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  titleFailed: 'Failed to save title',
  renameDocument: 'Rename document',
  progress: (finalized: number, total: number) => `${finalized} of ${total} subsection(s) completed`,
} as const;

/** The save-status badge (spec 001 §2 tooltips, §4 "Save status"). */
export const SAVE_STATUS_TEXTS = {
  label: 'Save status',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  saved: 'Saved',
  error: 'Error saving',
  offlineRetrying: 'Offline — retrying',
  /** A live plan offline: its changes stay in this tab's replica until the socket is back. */
  offlineKept: 'Offline — your changes are kept on this device',
  retrying: 'Retrying…',
} as const;

/** The conflict dialog (a 412 on an autosave). */
export const CONFLICT_TEXTS = {
  heading: 'This document was changed elsewhere',
  body: 'Someone (maybe you, in another tab or on another device) saved a newer version of this document while you were editing. Choose which version to keep.',
  reloadTheirs: 'Reload theirs',
  keepMine: 'Keep mine (overwrite)',
  copyMine: 'Copy mine to clipboard',
  copied: 'Copied',
  copyFailed: 'Could not copy: your browser refused access to the clipboard.',
} as const;

/** The sections sidebar (spec 001 §2 "Sections sidebar"). */
export const SIDEBAR_TEXTS = {
  openComments: (count: number) => (count === 1 ? '1 open comment' : `${count} open comments`),
  heading: 'Sections',
  hide: 'Hide sections',
  show: 'Show sections',
  empty: 'No sections available',
  untitledSection: UNTITLED_SECTION,
  untitledSubsection: UNTITLED_SUBSECTION,
  expand: (title: string) => `Expand ${title}`,
  collapse: (title: string) => `Collapse ${title}`,
  actions: (title: string) => `Actions for ${title}`,
  reorder: (title: string) => `Reorder ${title}`,
  cursorHere: 'Cursor is here',
  rename: 'Rename',
  delete: 'Delete',
  moveUp: 'Move up',
  moveDown: 'Move down',
  renameSection: 'Rename section',
  renameSubsection: 'Rename subsection',
  deleteSection: 'Delete section?',
  deleteSubsection: 'Delete subsection?',
  cannotUndo: 'This action cannot be undone.',
  titleLabel: 'Title',
  cancel: 'Cancel',
  save: 'Save',
  saving: 'Saving…',
  deleting: 'Deleting…',
  pickedUp: (title: string) => `Picked up section ${title}.`,
  movedOver: (title: string, over: string) => `Section ${title} is over ${over}.`,
  dropped: (title: string, position: number) => `Section ${title} dropped at position ${position}.`,
  dragCancelled: (title: string) => `Moving section ${title} was cancelled.`,
} as const;

/** Structure calls, loads and notices (spec 001 §4, §8). */
export const WORKSPACE_TEXTS = {
  /** The document page's words for the same states (spec 000 §8). */
  loading: DOCUMENT_TEXTS.loading,
  notFound: DOCUMENT_TEXTS.notFound,
  backToDocuments: DOCUMENT_PAGE_TEXTS.backToDocuments,
  loadFailed: DOCUMENT_PAGE_TEXTS.loadFailed,
  saveFailed: 'Failed to save changes',
  leaveFailed: 'Failed to save changes, so you are still on this page: nothing is lost.',
  structureFailed: 'Failed to save',
  lastSection: (kind: 'document' | 'blueprint') => `A ${kind} keeps at least one section.`,
  deleteFailed: 'The item could not be deleted, so it is back in the list.',
  reorderFailed: 'The new order could not be saved; the document was read again.',
  restoredDraft: (time: string) => `Restored unsaved changes from ${time}.`,
  dismiss: 'Dismiss',
  toolbar: 'Editor toolbar',
  skipToEditor: 'Skip to editor',
} as const;

/** The gutter between the editor and the chat panel. */
export const CHAT_AREA_TEXTS = {
  resize: 'Resize chat panel',
} as const;

/** The System Prompt dialog (spec 001 §2: read-only for users). */
export const SYSTEM_PROMPT_TEXTS = {
  heading: 'System Prompt',
  intro: 'The instructions every AI answer starts from. Administrators manage them; they are read-only here.',
  loading: 'Loading system prompt…',
  loadFailed: 'Failed to load the system prompt',
  close: 'Close',
} as const;

/** The blueprint editor's own words (spec 001 §2 "Blueprint editor layout", §5, §8). */
export const BLUEPRINT_WORKSPACE_TEXTS = {
  loading: BLUEPRINT_PAGE_TEXTS.loading,
  notFound: BLUEPRINT_TEXTS.notFound,
  loadFailed: BLUEPRINT_TEXTS.loadFailed,
  backToBlueprints: BLUEPRINT_PAGE_TEXTS.backToBlueprints,
  blueprints: BLUEPRINTS_PAGE_TEXTS.title,
  untitled: BLUEPRINT_TEXTS.untitled,
  titleLabel: 'Blueprint title',
  renameBlueprint: 'Rename Blueprint',
  readOnly: BLUEPRINT_PAGE_TEXTS.readOnly,
  exportMarkdown: 'Export as .md',
  markdownExportDocumentsOnly: BLUEPRINT_TEXTS.markdownExportDocumentsOnly,
  resize: 'Resize settings panel',
} as const;

/** The blueprint's settings panel (spec 001 §2: settings per section or subsection). */
export const SETTINGS_PANEL_TEXTS = {
  heading: 'Settings',
  sectionHeading: 'Section settings',
  subsectionHeading: 'Subsection settings',
  none: 'Select a section or subsection to set what the AI does there and what writers are told.',
  title: 'Title',
  developerPrompt: 'Developer prompt',
  developerPromptHelp: 'Hidden instructions for the AI. Writers never see them.',
  userHint: 'User hint',
  userHintHelp: 'Guidance writers see under the heading.',
  toolMode: 'Tool mode',
  toolModes: {
    '': 'None',
    web: 'Web search',
    research: 'Deep research',
    fact_check: 'Fact check',
    mcp: 'MCP server',
  },
  mcpUrl: 'MCP URL',
  mcpUrlPlaceholder: 'https://mcp.example.com/sse',
  enableMcp: BLUEPRINT_TEXTS.enableMcp,
  notSavedInvalid: 'Not saved until the MCP URL is valid.',
  saveStatus: 'Settings save status',
  contentNotSaved: 'The blueprint’s text could not be saved yet, so its settings wait for it.',
  mcpUrlMissing: BLUEPRINT_TEXTS.mcpUrlRequired,
  saveFailed: BLUEPRINT_TEXTS.saveFailed,
} as const;

/** The blueprint's System Prompt dialog: its own prompt, editable, under the global one, read-only. */
export const BLUEPRINT_SYSTEM_PROMPT_TEXTS = {
  heading: 'System Prompt',
  blueprintPrompt: 'Blueprint system prompt',
  blueprintPromptHelp:
    'Instructions the AI follows in every document made from this blueprint, after the global prompt.',
  globalPrompt: 'Global system prompt',
  globalPromptHelp: 'Managed by administrators; read-only.',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  failed: BLUEPRINT_TEXTS.saveChangesFailed,
} as const;

/** Import (spec 001 §2 "Import and busy dialogs", §4 import mode, §5, §8). */
export const IMPORT_TEXTS = {
  /** The File menu's entry (it takes .docx). */
  menuItem: 'Import…',
  /** The header's button (it takes .docx and .md). */
  headerButton: 'Import',
  /** The hidden file inputs' names. */
  menuFileLabel: 'File to import (.docx)',
  headerFileLabel: 'File to import (.docx or .md)',
  dialogHeading: 'Import document',
  intro: 'The file’s sections and subsections are added to this document, titled “(Imported) …”.',
  replace: 'Replace document',
  replaceHelp: 'Replace the whole document with the file instead of adding to it.',
  cancel: 'Cancel',
  import: 'Import',
  confirmHeading: 'Replace document?',
  confirmBody:
    'Replace the whole document with the imported file? Its current sections and text are removed; sections whose titles match keep their settings. This cannot be undone.',
  confirmReplace: 'Replace',
  progressHeading: 'Importing document',
  progressMessage: (fileName: string) => `Reading ${fileName}…`,
  progressUploading: (fileName: string) => `Uploading ${fileName}…`,
  progressQueued: (ahead: number) =>
    ahead > 0 ? `Waiting for a converter… (${ahead} ahead)` : 'Waiting for a converter…',
  progressConverting: (seconds: number, limitSeconds: number) =>
    `Converting… ${seconds} s of at most ${limitSeconds} s`,
  progressSaving: 'Saving…',
  /** The progress bar's spoken value: the step and what it says. */
  progressStep: (step: number, steps: number, message: string) => `Step ${step} of ${steps}: ${message}`,
  failed: (message: string) => `Import failed: ${message}`,
  unknownFailure: 'An unexpected error occurred.',
  readBackFailed: (message: string) =>
    `The file was imported, but the document could not be read again: ${message}. Reload the page to see it.`,
  saveFirstFailed: 'Failed to save changes',
  reportHeading: (fileName: string) => `Imported ${fileName}.`,
  reportClean: 'Everything in the file arrived as it was.',
  reportNotes: 'What changed on the way in:',
} as const;

/** Export (spec 001 §2 "Top bar", §5, §7, §8). */
export const EXPORT_TEXTS = {
  /** The header's menu button. */
  menu: 'Export',
  item: (format: string) => `Export as .${format}`,
  busyTitle: 'Exporting document',
  busyMessage: (fileName: string) => `Preparing ${fileName}…`,
  failed: (message: string) => `Export failed: ${message}`,
  /** Spec 001 §8: the alert when the failure has no message. */
  error: 'Export error',
  saveFirstFailed: 'Failed to save changes',
  markdownExportDocumentsOnly: BLUEPRINT_TEXTS.markdownExportDocumentsOnly,
} as const;
