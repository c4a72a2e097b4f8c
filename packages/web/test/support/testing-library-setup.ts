import { configure } from '@testing-library/react';

// A lazily loaded route compiles on first use, which on a loaded 2-core CI machine can take seconds: `findBy…`
// waits up to 10 s (the default 1 s made first tests of a file fail under load), still failing when nothing comes.
configure({ asyncUtilTimeout: 10_000 });
