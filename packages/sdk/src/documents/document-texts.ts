/**
 * The product's words for the documents screens (spec 000 §2, §5, §8; spec 001 §9), in one place so the
 * web app and the CLI say the same thing. Texts quoted by the specs are copied exactly.
 */

/** Spec 000 §9: how many documents the Recent Documents block shows. */
export const RECENT_DOCUMENTS = 5;

/** Spec 000 §2, §5 and §8 "Documents"; spec 001 §9 for the default title. */
export const DOCUMENT_TEXTS = {
  /** Shown for a document whose title is empty (spec 001 §9 default titles). */
  untitled: 'Untitled Document',
  loading: 'Loading document...',
  notFound: 'Document not found.',
  noDescription: 'This document has no description yet.',
  titleRequired: 'Title cannot be empty',
  // The new-document modal.
  selectBlueprintTitle: 'Select a Blueprint',
  selectBlueprint: 'Please select a blueprint',
  noBlueprints: 'No blueprints available. Using default template.',
  blueprintNoDescription: 'No description.',
  createDocument: 'Create Document',
  newDocument: 'New Document',
  // Spec 000 §8 "Documents".
  fetchDocumentsFailed: 'An error occurred fetching documents.',
  loadDocumentsFailed: 'Failed to load documents',
  fetchBlueprintsFailed: 'An error occurred fetching blueprints.',
  createFailed: 'Failed to create document',
  deleteFailed: 'Failed to delete document',
  renameFailed: 'Failed to rename document',
  loadActivityFailed: 'Failed to load activity',
  /** Spec 000 §2: the Due Date tile is a fixed placeholder. */
  dueDatePlaceholder: 'Mar 15',
} as const;
