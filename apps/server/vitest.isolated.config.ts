import { defineProject } from 'vitest/config';
import { ISOLATED, SERVER_TIMEOUT } from './vitest.config';

/** The server's test files that replace a module (`vi.mock`), each in a fresh module graph. */
export default defineProject({
  test: {
    name: 'server-isolated',
    environment: 'node',
    include: ISOLATED,
    testTimeout: SERVER_TIMEOUT,
  },
});
