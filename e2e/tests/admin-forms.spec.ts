/**
 * Admin forms in the browser at 1366 px and 390 px: the Discord sender names every problem on its
 * field at once, and the leaderboard settings mark each wrong field in plain words, nothing sent.
 * Screenshots: e2e/screenshots/admin-forms-*.png.
 */
import { expect, test } from './fixtures';
import { DEMO_ADMIN, keepScreenshot, screenshot, signIn } from './helpers';

for (const width of [1366, 390]) {
  test(`the Discord sender and the leaderboard settings show field errors at ${width} px`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, DEMO_ADMIN, { demo: true });

    await page.goto('/DiscordMessageSender');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText('Enter a message.')).toBeVisible();
    await expect(page.getByText('Pick at least one user, or switch on an audience below.')).toBeVisible();
    await expect(page.getByLabel('Message')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('0 / 2000 characters')).toBeVisible();
    const card = await page.locator('form.kb-card').boundingBox();
    expect(card!.x + card!.width).toBeLessThanOrEqual(width);
    await screenshot(page, `admin-forms-discord-${width}`);

    let sent = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/admin/leaderboards/')) sent += 1;
    });
    await page.goto('/admin/leaderboards?board=roobet');
    const roobet = page.getByRole('article', { name: '6. Roobet' });
    await roobet.getByLabel('Length').fill('0');
    await roobet.getByLabel('Referral link').fill('javascript:alert(1)');
    await roobet.getByLabel('Referral code').fill('has space');
    await roobet.getByRole('button', { name: 'Save Roobet' }).click();
    await expect(roobet.getByText('Enter a period length of 1 to 31 days.')).toBeVisible();
    await expect(roobet.getByText('Enter a referral link starting with http:// or https://.')).toBeVisible();
    await expect(roobet.getByText('Use only letters, digits, dot, dash or underscore in a code.')).toBeVisible();
    await roobet.scrollIntoViewIfNeeded();
    await keepScreenshot(roobet, { path: `screenshots/admin-forms-leaderboard-${width}.png` });
    expect(sent).toBe(0);
    await context.close();
  });
}
