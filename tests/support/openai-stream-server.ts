// The implementation is plain JavaScript (openai-stream-server.mjs + .d.mts) so server tests and .mjs
// benchmarks can import it too; TypeScript code under tests/ may import it from here.
export * from './openai-stream-server.mjs';
