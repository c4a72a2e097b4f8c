export { corpusPath } from './corpus-path.mjs';
