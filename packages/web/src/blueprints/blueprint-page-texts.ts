/**
 * The blueprint screens' own words: headings, labels and notices spec 000 leaves to us. The words the spec
 * quotes come from the SDK (`BLUEPRINT_TEXTS`, `DOCUMENT_TEXTS`), shared with the CLI.
 */

export const BLUEPRINTS_PAGE_TEXTS = {
  title: 'Blueprints',
  intro: 'Reusable plan structures: sections, subsections and the guidance that goes with them.',
  allBlueprints: 'All Blueprints',
  recentBlueprints: 'Recent Blueprints',
  loading: 'Loading blueprints…',
  loadFailed: 'Failed to load blueprints',
  creating: 'Creating…',
  emptyTitle: 'No blueprints yet',
  empty: 'Create a blueprint to reuse a plan structure, or publish it for others.',
  updated: 'Updated',
  version: (version: number) => `v${version}`,
} as const;

export const BLUEPRINT_PAGE_TEXTS = {
  loading: 'Loading blueprint…',
  edit: 'Edit',
  /** Someone else's blueprint: the editor opens read-only, and follows the owner's changes live. */
  view: 'View',
  actions: 'Blueprint actions',
  rename: 'Rename',
  delete: 'Delete',
  renameHeading: 'Rename blueprint',
  deleteHeading: 'Delete blueprint?',
  deleteBody: (title: string) =>
    `“${title}” will be deleted. Documents made from it keep their sections. This cannot be undone.`,
  deleting: 'Deleting…',
  cancel: 'Cancel',
  publishedBy: (publisher: string) => `by ${publisher}`,
  sections: 'Sections',
  updated: 'Updated',
  created: 'Created',
  marketplace: 'Marketplace',
  marketplaceIntro: 'Publish this blueprint so others can make documents from it.',
  readOnly: 'Only the owner of this blueprint can change it.',
  status: 'Status',
  statuses: { draft: 'Draft', published: 'Published' },
  version: 'Version',
  visibility: 'Visibility',
  visibilities: {
    public: 'Public: everyone',
    restricted: 'Restricted: members of the organisations below',
    private: 'Private: only you',
    unlisted: 'Unlisted: anyone with the link',
  },
  allowedOrgs: 'Allowed organisations',
  noOrganizations: 'You are not a member of any organisation yet.',
  loadingOrganizations: 'Loading organisations…',
  organizationsFailed: 'Your organisations could not be loaded.',
  save: 'Save changes',
  saving: 'Saving…',
  reset: 'Cancel',
  saved: 'Changes saved.',
  publishNewVersion: (version: number) => `Publish version ${version}`,
  publishing: 'Publishing…',
  publishedVersion: (version: number) =>
    `Published version ${version}. Documents made from earlier versions keep theirs.`,
  sales: 'Sales',
  downloads: 'Downloads',
  revenue: 'Revenue',
  salesNote: 'Sample figures: marketplace sales are not live yet.',
  backToBlueprints: 'Back to blueprints',
} as const;
