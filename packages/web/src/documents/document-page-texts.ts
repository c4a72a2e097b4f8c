/**
 * The documents screens' own words: headings, labels and notices spec 000 leaves to us. The words the spec
 * quotes come from the SDK (`DOCUMENT_TEXTS`), shared with the CLI.
 */

export const DOCUMENTS_PAGE_TEXTS = {
  title: 'Documents',
  intro: 'Your business plans, each made from a blueprint.',
  allDocuments: 'All Documents',
  recentDocuments: 'Recent Documents',
  loading: 'Loading documents…',
  emptyTitle: 'No documents yet',
  empty: 'Create your first document from a blueprint to start writing your plan.',
  updated: 'Updated',
  created: 'Created',
  progressOf: (title: string) => `Progress of ${title}`,
} as const;

export const NEW_DOCUMENT_TEXTS = {
  blueprints: 'Blueprint',
  loading: 'Loading blueprints…',
  creating: 'Creating…',
  cancel: 'Cancel',
} as const;

export const DOCUMENT_PAGE_TEXTS = {
  edit: 'Edit',
  actions: 'Document actions',
  rename: 'Rename',
  delete: 'Delete',
  renameHeading: 'Rename document',
  deleteHeading: 'Delete document?',
  deleteBody: (title: string) =>
    `“${title}” will be deleted with all its sections and subsections. This cannot be undone.`,
  deleting: 'Deleting…',
  cancel: 'Cancel',
  progress: 'Progress',
  tasks: 'Tasks',
  tasksDetail: 'subsections finalized',
  dueDate: 'Due Date',
  description: 'Description',
  keyObjectives: 'Key Objectives',
  /** Spec 000 §2: the Key Objectives list holds fixed placeholder items. */
  objectives: [
    'Validate the problem with ten target customers',
    'Size the market with sources you can cite',
    'Build a three-year financial forecast',
  ],
  loadFailed: 'Failed to load document',
  backToDocuments: 'Back to documents',
} as const;
