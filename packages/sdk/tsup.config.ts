import { defineConfig } from 'tsup';

export default defineConfig({
  // The model has its own entry so the main one never pulls in Tiptap and ProseMirror.
  entry: {
    index: 'src/index.ts',
    'model/index': 'src/model/index.ts',
    'formats/index': 'src/formats/index.ts',
    // Node-only libraries (mammoth, docx, pdfmake, linkedom) stay behind their own entry.
    'formats/node/index': 'src/formats/node/index.ts',
    // Applying the AI's proposals needs the model and the Markdown reader: its own entry, like the model.
    'proposals/index': 'src/proposals/index.ts',
    // In-memory chat sockets and a manual clock, for tests of apps built on ChatSession.
    'testing/index': 'src/chat/testing/index.ts',
  },
  format: ['esm'],
  // tsup's declaration step sets `baseUrl`, which TypeScript 6 reports as deprecated (stack.md gotcha 1),
  // and compiles only what index.ts reaches, which a `composite` project refuses (TS6307).
  dts: { compilerOptions: { ignoreDeprecations: '6.0', composite: false } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Browsers and Node alike: no Node built-ins, no Node-specific resolution.
  platform: 'neutral',
});
