/**
 * The accessibility check every journey runs (./axe-every-page.ts) judges colours the page holds,
 * not colours caught mid-change: a button leaving its disabled look as the journey clicks on once
 * failed a journey for its contrast. A real violation is still reported.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe-every-page';
import { expect, test } from './fixtures';

// The button's dim look is far below 4.5:1 (equal colours would be text axe cannot judge). Its
// colours change after a delay, so a look taken at once sees the dim look while the change is under
// way, as a transition's first frames do.
const PAGE = `<!doctype html><html lang="en"><head><title>Steady</title><style>
  body { background: rgb(17, 20, 24); color: rgb(232, 234, 237); }
  button { background: rgb(83, 252, 24); color: rgb(11, 13, 16); border: 0; padding: 8px;
    transition: background-color 0.2s linear 1.5s, color 0.2s linear 1.5s; }
  button.dim { background: rgb(59, 74, 51); color: rgb(102, 112, 92); }
</style></head><body><main><h1>Bot messages</h1><button class="dim">Connect bot account</button></main></body></html>`;

async function dimButton(page: Page) {
  await page.setContent(PAGE);
  await expect(page.getByRole('button')).toHaveClass('dim');
}

const undim = (page: Page) => page.getByRole('button').evaluate((b) => b.classList.remove('dim'));

test('a button that stays dim is reported', async ({ page }) => {
  await dimButton(page);
  expect(await seriousViolations(page)).toEqual([expect.stringMatching(/^color-contrast: .*\(button\)$/)]);
});

test('a button caught changing is looked at again once it holds still, and passes', async ({ page }) => {
  await dimButton(page);
  await undim(page);
  // Judged as it is this moment, it fails: the change has begun but its colours are still dim.
  const atOnce = await new AxeBuilder({ page }).withRules(['color-contrast']).setLegacyMode(true).analyze();
  expect(atOnce.violations.map((v) => v.id)).toEqual(['color-contrast']);

  await dimButton(page);
  await undim(page);
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole('button')).toHaveCSS('background-color', 'rgb(83, 252, 24)');
});
