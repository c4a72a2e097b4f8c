import type { HtmlParser } from '@planwright/sdk/formats';

let parser: HtmlParser | undefined;

/**
 * The SDK's HTML parser for Node (linkedom), loaded at its first use: its entry also brings the .docx and
 * PDF writers, 0.6 s of loading that a server start should not wait for (bench/server-cold-start.mjs).
 */
export async function loadHtmlParser(): Promise<HtmlParser> {
  parser ??= (await import('@planwright/sdk/formats/node')).parseHtmlInNode;
  return parser;
}
