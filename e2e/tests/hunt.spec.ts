/**
 * The bonus hunt in the browser: the admin runs a hunt from the Admin dropdown's page, keyboard
 * first, while the OBS overlay (signed out, 1920×1080) and the public /hunt page follow in other
 * contexts; two linked chatters `!guess` through the Chat Simulator; the closest guess wins and is
 * shown on the overlay and on /hunt, whose in-browser check of the published hash passes.
 * Screenshots: /tmp/hunt-admin.png, /tmp/hunt-public.png, /tmp/hunt-overlay-*.png.
 */
import type { Browser, Page } from '@playwright/test';
import { postInChat } from './chat-helpers';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, newPerson, signIn } from './helpers';

/** A viewer who links a Kick account with !verify through the simulator. */
async function chatter(browser: Browser, sim: Page, prefix: string) {
  const person = newPerson(prefix);
  const kickName = `kick_${person.steamId.slice(-6)}`;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, person);
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  const profile = page.getByRole('dialog', { name: 'Profile Settings' });
  await profile.getByRole('button', { name: 'Link Kick', exact: true }).click();
  const command = (await page.getByTestId('kick-verify-command').textContent()) ?? '';
  await expect(await postInChat(sim, kickName, command)).toContainText(`@${kickName} your Kick account is now linked`);
  await page.context().close();
  return { name: person.name, kickName };
}

/** The overlay is transparent; for the picture it sits over a dark "stream". */
async function overlayShot(overlay: Page, name: string) {
  const background = await overlay.evaluate(() => [
    getComputedStyle(document.documentElement).backgroundColor,
    getComputedStyle(document.body).backgroundColor,
  ]);
  expect(background).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  await overlay.evaluate(() =>
    document.documentElement.style.setProperty('background', 'linear-gradient(135deg, #1b2230, #0c0f14)', 'important'),
  );
  await keepScreenshot(overlay, { path: `/tmp/hunt-overlay-${name}.png` });
  await overlay.evaluate(() => document.documentElement.style.removeProperty('background'));
}

const SLOTS = [
  ['Gates of Olympus', 'Pragmatic Play', '1'],
  ['Wanted Dead or a Wild', 'Hacksaw', '0.80'],
  ['Sugar Rush 1000', 'Pragmatic Play', '1.20'],
  ['Mental', 'Nolimit City', '0.50'],
  ['Big Bass Bonanza', 'Pragmatic Play', '2'],
  ['Dead Canary', 'Nolimit City', '1'],
  ['Chaos Crew 2', 'Hacksaw', '1'],
  ['Fire in the Hole', 'Nolimit City', '0.40'],
  ['Sweet Bonanza', 'Pragmatic Play', '1'],
  ['Le Bandit', 'Hacksaw', '1'],
  ['Tombstone RIP', 'Nolimit City', '0.60'],
  ['Starlight Princess', 'Pragmatic Play', '1'],
] as const;
// Won: 170.50 in all.
const PAYOUTS = ['50.50', '0', '12', '30', '4', '0', '20', '8', '16', '10', '0', '20'];

test('a hunt run from the admin page, followed by the overlay and /hunt, with !guess and its winner', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const admin = await adminContext.newPage();
  // Chromium warns in the console when NaN is written into a number field.
  const nanWarnings: string[] = [];
  admin.on('console', (m) => {
    if (m.text().includes('NaN')) nanWarnings.push(m.text());
  });
  await signIn(admin, DEMO_ADMIN, { demo: true });
  const sim = await adminContext.newPage();
  await sim.goto('/admin/chat-simulator');
  const ann = await chatter(browser, sim, 'Ann');
  const ben = await chatter(browser, sim, 'Ben');

  const overlay = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await overlay.goto('/overlay/hunt');
  await expect(overlay.getByRole('main', { name: 'Bonus hunt overlay' })).toBeAttached();
  await expect(overlay.locator('header nav, footer')).toHaveCount(0); // outside the shared layout
  const publicPage = await (await browser.newContext()).newPage();
  await publicPage.goto('/');
  await publicPage.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'Bonus Hunt' }).click();
  await expect(publicPage).toHaveURL(/\/hunt$/);
  await expect(publicPage.getByRole('heading', { name: 'Bonus Hunt', exact: true })).toBeVisible();

  // The admin starts a hunt from the Admin dropdown.
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Run Bonus Hunt' }).click();
  await admin.getByLabel('Name').fill('Friday night hunt');
  await admin.getByLabel('Start cost ($)').fill('1000');
  await admin.getByLabel('Guess prize (points)').fill('500');
  await admin.getByLabel('Guess prize (points)').press('Enter');
  await expect(admin.getByText('Hunt started: guessing is open.')).toBeVisible();

  // "Add" keeps its padding, at a laptop's width and at a tablet's.
  const add = admin.getByRole('button', { name: 'Add', exact: true });
  for (const width of [1440, 800]) {
    await admin.setViewportSize({ width, height: 1000 });
    const [button, text] = await add.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return [el.getBoundingClientRect(), range.getBoundingClientRect()].map((r) => ({ left: r.left, right: r.right }));
    });
    expect(text!.left - button!.left, `left padding at ${width}px`).toBeGreaterThanOrEqual(12);
    expect(button!.right - text!.right, `right padding at ${width}px`).toBeGreaterThanOrEqual(12);
  }
  await admin.setViewportSize({ width: 1440, height: 1000 });

  // Bonuses as they are bought, keyboard only: Enter adds and returns to the slot field.
  await admin.getByLabel('Provider').fill(SLOTS[0][1]);
  for (const [slot, provider, bet] of SLOTS) {
    await admin.getByLabel('Provider').fill(provider);
    await admin.getByLabel('Bet ($)').fill(bet);
    await admin.getByLabel('Slot').fill(slot);
    await admin.getByLabel('Slot').press('Enter');
    await expect(admin.getByRole('table', { name: 'Bonuses' })).toContainText(slot);
    // The live state can show the bonus before the form has been reset for the next one.
    await expect(admin.getByLabel('Slot')).toHaveValue('');
    await expect(admin.getByLabel('Slot')).toBeFocused();
  }
  const panel = overlay.locator('.kbh-panel');
  await expect(panel).toContainText('Friday night hunt');
  await expect(panel).toContainText('0/12');
  await expect(publicPage.getByRole('article', { name: 'Friday night hunt' })).toContainText('Starlight Princess');

  // Guesses from chat while guessing is open; Ben changes his.
  await expect(await postInChat(sim, ann.kickName, '!guess 150')).toContainText('guess taken: 150.00');
  await expect(await postInChat(sim, ben.kickName, '!guess 900')).toContainText('guess taken: 900.00');
  await expect(await postInChat(sim, ben.kickName, '!guess 400')).toContainText('guess changed to 400.00');
  await expect(panel).toContainText('2 in');
  await expect(admin.getByRole('region', { name: 'Guesses so far' })).toContainText(`${ben.kickName}: $400.00`);
  await overlayShot(overlay, 'guessing');

  await admin.getByRole('button', { name: 'Close guessing' }).click();
  await expect(admin.getByText('Guessing closed.')).toBeVisible();
  await expect(await postInChat(sim, ann.kickName, '!guess 170')).toContainText('guessing is closed');
  const hash = publicPage.getByTestId('guess-hash');
  await expect(hash).toHaveText(/^[0-9a-f]{64}$/);

  // Opening, keyboard only: type the payout, Enter, the next one is focused.
  for (const [i, payout] of PAYOUTS.entries()) {
    const field = admin.getByLabel('Payout');
    await expect(field).toBeFocused();
    await field.fill(payout);
    await field.press('Enter');
    await expect(overlay.locator('.kbh-head')).toContainText(`${i + 1}/12`);
    // The admin's own page has the answer too (the next field replaces this one) before the next payout.
    await expect(admin.locator('[data-figure="Opened"]')).toHaveText(`${i + 1}/12`);
    if (i === 7) {
      await expectAccessible(admin);
      await keepScreenshot(admin, { path: '/tmp/hunt-admin.png', fullPage: true });
      // The list scrolled to the bonus being opened, the totals stay in view.
      const list = await overlay.getByRole('list', { name: 'Bonuses' }).boundingBox();
      await expect(overlay.locator('.kbh-list li.current')).toContainText('Sweet Bonanza');
      await expect
        .poll(async () => {
          const cur = await overlay.locator('.kbh-list li.current').boundingBox();
          return !!cur && !!list && cur.y >= list.y && cur.y + cur.height <= list.y + list.height;
        })
        .toBe(true);
      await expect(overlay.getByRole('definition').filter({ hasText: '$1,000.00' })).toBeInViewport();
      await overlayShot(overlay, 'opening-1080');
      await overlay.setViewportSize({ width: 1280, height: 720 });
      await overlayShot(overlay, 'opening-720');
      await overlay.setViewportSize({ width: 1920, height: 1080 });
    }
  }
  await expect(panel).toContainText('$170.50');
  await expect(panel).toContainText('-$829.50');

  await admin.getByRole('button', { name: 'Finish hunt' }).click();
  await expect(admin.getByText('Hunt finished.')).toBeVisible();
  expect(nanWarnings).toEqual([]);
  await expect(panel.getByLabel('Guess winner')).toContainText(`Winner: ${ann.kickName} · $150.00 · +500.00 pts`);
  await overlayShot(overlay, 'finished');

  const past = publicPage.getByRole('article', { name: 'Friday night hunt' });
  await expect(past).toContainText('finished');
  await expect(past.getByLabel('Guess winner')).toContainText(`${ann.kickName} guessed $150.00 ($20.50 off)`);
  await expect(past.getByRole('status')).toContainText('The revealed list matches the published hash');
  await past.getByText('All 2 guesses').click();
  await expect(past).toContainText(`${ben.kickName}: $400.00`);
  await expectAccessible(publicPage);
  await publicPage.setViewportSize({ width: 1280, height: 1000 });
  await keepScreenshot(publicPage, { path: '/tmp/hunt-public.png', fullPage: true });
});
