/**
 * A value built on its first use rather than at import: for zod schemas that only some programs need.
 * Building a schema costs CPU, and the main entry's modules built about 20 ms of them at import, in every
 * program that loads it; a client that only asks for the server's health needs none of the chat protocol's.
 * For internal schemas only: an exported schema stays a schema (its type is public API).
 *
 * @example
 * const frameSchemas = lazySchema(() => ({ base: z.object({ type: z.string() }) }));
 * frameSchemas().base.safeParse(json);
 */
export function lazySchema<Schema>(build: () => Schema): () => Schema {
  let schema: Schema | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
