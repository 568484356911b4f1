/**
 * The header fits every laptop width for the widest menu (an admin: Admin menu, name, balance):
 * no sideways scrolling between the width where the menu expands (1200 px) and 1600 px.
 */
import { expect, test } from './fixtures';
import { DEMO_ADMIN, screenshot, signIn } from './helpers';

test('the signed-in admin header fits from 1200 px to 1600 px without sideways scrolling', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  for (const width of [1600, 1440, 1366, 1280, 1200]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
    if (width === 1200) await screenshot(page, 'header-admin-1200');
  }
  await context.close();
});
