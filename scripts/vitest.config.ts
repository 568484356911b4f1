import { defineProject } from 'vitest/config';

// Checks of the repository as a whole (import cycles) rather than of one workspace.
export default defineProject({
  test: { name: 'repo', environment: 'node', include: ['*.test.ts'] },
});
