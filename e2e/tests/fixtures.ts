/**
 * The `test` every journey uses: Playwright's, plus closing the browser contexts a test opened
 * itself (`browser.newContext()`). Left open, each kept its pages alive for the rest of the run —
 * sockets, polls and timers of earlier journeys loading the server and the one worker while later
 * journeys ran. Playwright closes its own `context` fixture; failure screenshots are taken before this.
 */
import { test as base } from '@playwright/test';

export const test = base.extend<{ closesOwnContexts: void }>({
  closesOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
