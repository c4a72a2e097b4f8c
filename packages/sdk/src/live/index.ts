/**
 * `@planwright/sdk/live`: a plan's content as a Yjs document, the shared state of live (co-edited)
 * plans. Reading it as a normalised tree, and writing a tree into it with the smallest change, so a
 * REST write, an import or a structure call never overwrites what others are typing. Rules:
 * `src/live/SPEC.md`.
 *
 * @module @planwright/sdk/live
 */

export type { Clock } from '../state/clock.js';
export { type CommentRange, decodeCommentAnchor, encodeCommentAnchor } from './comment-anchor.js';
export {
  createLiveContent,
  LIVE_CONTENT_FIELD,
  type LiveContentRead,
  liveContentOf,
  needsRepair,
  readLiveContent,
  writeLiveContent,
} from './live-content.js';
export {
  LIVE_ACCESS_CHANGED,
  LIVE_BUSY,
  LIVE_DELETED,
  LIVE_REFUSED,
  LIVE_SIGNED_OUT,
  type LiveConnectionStatus,
  LiveDocument,
  type LiveDocumentError,
  type LiveDocumentOptions,
  type LiveDocumentSnapshot,
  type LivePeer,
  type LivePlanKind,
  openLiveDocument,
} from './live-document.js';
