import { defineProject } from 'vitest/config';

// Checks of the repository as a whole (import cycles) rather than of one workspace. Reading every
// source file took over 5 s on a loaded machine, hence the longer timeout.
export default defineProject({
  test: { name: 'repo', environment: 'node', include: ['*.test.ts'], testTimeout: 30_000 },
});
