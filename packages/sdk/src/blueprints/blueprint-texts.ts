/**
 * The product's words for the blueprint screens (spec 000 §2, §5, §8; spec 001 §2, §5), in one place so
 * the web app and the CLI say the same thing. Texts quoted by the specs are copied exactly; the few
 * that are ours are marked.
 */

/** Spec 000 §9: how many blueprints the Recent Blueprints block shows. */
export const RECENT_BLUEPRINTS = 5;

/** Spec 000 §4, §9: the fixed default blueprint preferred when creating a document. */
export const PREFERRED_BLUEPRINT_TITLE = 'Business Plan';

/**
 * Spec 000 §3: the label shown when a blueprint names no publisher and no owner; also the publisher of the
 * seeded "Business Plan" (`docs/http-api.md` "Blueprints").
 */
export const STUDIO_PUBLISHER = 'Planwright Studio';

/** Spec 000 §3, §9; spec 001 §9: a version is a whole number of at least 1. */
export const BLUEPRINT_VERSION_MIN = 1;

/** Spec 000 §5, §8 "Blueprints"; spec 001 §2, §5, §8. */
export const BLUEPRINT_TEXTS = {
  /** Ours: the server's default title for a new blueprint (`docs/http-api.md`). */
  untitled: 'Untitled Blueprint',
  notFound: 'Blueprint not found.',
  noDescription: 'No description.',
  titleRequired: 'Title cannot be empty',
  loadFailed: 'Failed to load blueprint',
  createFailed: 'Failed to create blueprint',
  deleteFailed: 'Failed to delete blueprint',
  renameFailed: 'Failed to rename blueprint',
  saveChangesFailed: 'Failed to save changes',
  saveFailed: 'Failed to save',
  newBlueprint: 'New Blueprint',
  enableMcp: 'Enable MCP to set a URL.',
  /** Ours: the spec says the MCP URL "must be a URL", not in which words. */
  mcpUrlInvalid: 'Please enter a valid URL (http:// or https://).',
  /** Ours. */
  mcpUrlRequired: 'Please enter the URL of the MCP server.',
  /** Ours: the spec gives the minimum, not the words. */
  versionTooLow: 'Version must be a whole number of at least 1.',
  markdownExportDocumentsOnly: 'Markdown export is available for Documents.',
  // Spec 000 §2: fixed placeholder numbers of the Sales card.
  salesDownloadsPlaceholder: '1,344',
  salesRevenuePlaceholder: '$20,160.00',
} as const;
