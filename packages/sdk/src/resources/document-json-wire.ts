import * as z from 'zod';

/**
 * The content tree as far as the resource layer checks it: an object whose `type` is `doc`, with an
 * optional `content` array. Its nodes are the model's business, and the server normalises every tree it
 * stores (`docs/http-api.md` "Content"), so a stricter check here would only refuse documents a newer
 * server can make.
 */
export const documentJsonWire = z.looseObject({
  type: z.literal('doc'),
  content: z.array(z.unknown()).optional(),
});

/**
 * A section node as `PUT …/sections/{sid}/content/` takes it: an object whose `type` is `section`.
 */
export const sectionJsonWire = z.looseObject({
  type: z.literal('section'),
  attrs: z.record(z.string(), z.unknown()).optional(),
  content: z.array(z.unknown()).optional(),
});
