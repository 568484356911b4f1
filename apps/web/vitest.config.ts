import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // A page test renders React in jsdom: 5 s was not enough on a loaded 2-core machine.
    testTimeout: 15_000,
  },
});
