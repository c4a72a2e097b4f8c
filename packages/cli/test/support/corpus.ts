export { corpusPath } from '../../../../tests/support/corpus-path.mjs';
