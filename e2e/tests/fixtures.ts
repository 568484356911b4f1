/**
 * The `test` every journey uses: Playwright's, plus
 * - its worker's own server (`baseURL`, and the 18+ confirmation stored for that origin): journeys
 *   run two at a time, each pair on two sites (./suite-server.ts).
 * - closing the browser contexts a test opened itself (`browser.newContext()`). Left open, each kept
 *   its pages alive for the rest of the run — sockets, polls and timers of earlier journeys loading
 *   the server and the one worker while later journeys ran. Playwright closes its own `context`
 *   fixture; failure screenshots are taken before this.
 * - axe-core on every page the journey visits, once per path (./axe-every-page.ts): a serious or
 *   critical violation fails the journey.
 */
import { test as base } from '@playwright/test';
import { ageGateAccepted } from './age-gate-state';
import { watchEveryPage } from './axe-every-page';
import { serverUrl } from './suite-server';

export const test = base.extend<{ closesOwnContexts: void; accessibleEveryPage: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use, testInfo) => use(serverUrl(testInfo.parallelIndex)),
  storageState: async ({ baseURL }, use) => use(ageGateAccepted(baseURL!)),
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
  // Depends on closesOwnContexts so it finishes (pages still open) before those contexts close.
  accessibleEveryPage: [
    async ({ browser, context, baseURL, closesOwnContexts: _ }, use, testInfo) => {
      const watch = watchEveryPage(browser, context, new URL(baseURL ?? 'http://localhost').origin);
      await use();
      const found = await watch.finish();
      if (testInfo.status === testInfo.expectedStatus && found.length > 0) {
        throw new Error(`axe: serious or critical violations\n${found.join('\n')}`);
      }
    },
    // Its own time, apart from the journey's: the last checks and the pages opened again.
    { auto: true, timeout: 180_000 },
  ],
});

export { expect } from '@playwright/test';
