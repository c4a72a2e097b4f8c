import {
  createPlanwrightExtensions as createExtensions,
  type NodeIdAttributeOptions,
  type PlanwrightExtensionName,
  NodeIdAttribute as SdkNodeIdAttribute,
  Section as SdkSection,
  Subsection as SdkSubsection,
} from '@planwright/sdk/model';
import type { AnyExtension, Extension, Node } from '@tiptap/core';

/*
 * The SDK's extensions, typed with the web's own view of `@tiptap/core`. The web program compiles the
 * SDK's sources (the `source` condition) under the SDK's NodeNext settings, and there the Tiptap
 * extension packages resolve to their CommonJS declarations (`index.d.cts`), while the web, with Bundler
 * resolution, gets the ESM ones (`index.d.ts`): the same runtime objects with two unrelated sets of
 * types. They are re-typed once, here, instead of casting at every use.
 */

/** The SDK's `createPlanwrightExtensions` (one schema definition, shared with the server). */
export const createPlanwrightExtensions = createExtensions as unknown as (
  replacements?: Partial<Record<PlanwrightExtensionName, AnyExtension>>,
) => AnyExtension[];

/** The SDK's section node. */
export const Section = SdkSection as unknown as Node;

/** The SDK's subsection node. */
export const Subsection = SdkSubsection as unknown as Node;

/** The SDK's `nodeId` attribute extension. */
export const NodeIdAttribute = SdkNodeIdAttribute as unknown as Extension<NodeIdAttributeOptions>;
