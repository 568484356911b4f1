/**
 * Raffles in the browser: the admin creates a raffle with two prizes (points, then an item) and
 * opens it; three viewers buy tickets through the confirm dialog (one hits the cap and is told);
 * closing it draws two winners on the raffle page's wheel and on the OBS overlay; the verify page
 * says "match"; the points prize is in the winner's ledger once and the item in Fulfilment once;
 * My activity shows each viewer's tickets and the result.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { grantPoints } from './chat-helpers';
import { DEMO_ADMIN, keepScreenshot, newPerson, signIn } from './helpers';

// This journey checks the animations themselves (the confetti, the wheel, the spinner).
test.use({ reducedMotion: 'no-preference' });

const shot = (page: Page, name: string, transparent = false) =>
  keepScreenshot(page, { path: `/tmp/h7-raffle-${name}.png`, fullPage: true, omitBackground: transparent });

async function signedIn(browser: Browser, who: { name: string; steamId?: string }, demo = false): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/');
  await signIn(page, who, { demo });
  return page;
}

async function buy(page: Page, title: string, quantity: number, balanceAfter: string) {
  await page.goto('/raffles');
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByLabel('Tickets').fill(String(quantity));
  await page.getByRole('button', { name: 'Buy tickets' }).click();
  const dialog = page.getByRole('dialog', { name: `Buy ${quantity} ticket${quantity === 1 ? '' : 's'}?` });
  await expect(dialog.getByTestId('balance-after')).toHaveText(`Balance after: ${balanceAfter} points`);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

test('a raffle with two prizes: tickets, the cap, the draw on the wheel and overlay, verify, prizes once', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = `Knife raffle ${Date.now() % 100000}`;
  const overlay = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await overlay.goto('/overlay/raffle');
  await expect(overlay.getByTestId('raffle-overlay')).toBeVisible();

  // Admin → Raffles: a bad price is refused naming the field; the raffle is created, then opened.
  const admin = await signedIn(browser, DEMO_ADMIN, true);
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  // Admin → Raffles.
  await admin.locator('[aria-labelledby="kb-admin-menu"]').getByRole('link', { name: 'Raffles', exact: true }).click();
  await expect(admin.getByRole('heading', { name: 'Raffles', level: 1 })).toBeVisible();
  await admin.getByRole('button', { name: 'New raffle' }).click();
  const form = admin.getByRole('dialog', { name: 'New raffle' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Prize 1 points').fill('500');
  await form.getByRole('button', { name: 'Add prize' }).click();
  await form.getByLabel('Prize 2 kind').selectOption('item');
  await form.getByLabel('Prize 2 item').fill('Signed jersey');
  await form.getByLabel('Ticket price (points)').fill('0');
  await expect(form.getByText('Ticket price must be greater than 0')).toBeVisible();
  await form.getByLabel('Ticket price (points)').fill('10');
  await form.getByLabel('Maximum tickets per user').fill('3');
  await shot(admin, '01-form');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Raffle created.')).toBeVisible();
  await admin.getByRole('button', { name: `Open ${title}` }).click();
  await expect(admin.getByText('Raffle opened: its seed hash is published.')).toBeVisible();

  // Three viewers with 100 points each buy tickets; the third hits the cap and is told.
  const people = [newPerson('Raffler'), newPerson('Raffler'), newPerson('Raffler')];
  const viewers: Page[] = [];
  for (const person of people) {
    viewers.push(await signedIn(browser, person));
    await grantPoints(admin, person.name, 100, 'e2e raffle');
  }
  await buy(viewers[0]!, title, 1, '90.00');
  await buy(viewers[1]!, title, 2, '80.00');
  await buy(viewers[2]!, title, 3, '70.00');
  await expect(viewers[2]!.getByTestId('my-bought')).toHaveText('3 / 3');
  await expect(viewers[2]!.getByTestId('more-allowed')).toContainText('0 more to buy');
  await buy(viewers[2]!, title, 1, '60.00');
  await expect(viewers[2]!.getByText('You can buy at most 3 tickets in this raffle; you have bought 3.')).toBeVisible();
  await expect(viewers[0]!.getByTestId('tickets-sold')).toHaveText('6');
  await shot(viewers[2]!, '02-cap');

  // Closing draws: the wheel spins twice on the raffle page and on the overlay.
  const watcher = viewers[0]!;
  await admin.getByRole('button', { name: `Close ${title}` }).click();
  await expect(admin.getByText('Raffle closed: its ticket snapshot is hashed.')).toBeVisible();
  const winners = watcher.getByTestId('raffle-winners').getByRole('listitem');
  await expect(watcher.getByTestId('raffle-wheel')).toBeVisible();
  await shot(watcher, '03-spinning');
  await expect(winners).toHaveCount(2, { timeout: 20_000 });
  await expect(winners.nth(0)).toContainText('wins 500 points');
  await expect(winners.nth(1)).toContainText('wins Signed jersey');
  await expect(overlay.getByTestId('overlay-raffle-title')).toHaveText(title);
  await expect(overlay.getByTestId('raffle-winners').getByRole('listitem')).toHaveCount(2, { timeout: 20_000 });
  await shot(watcher, '03-drawn');
  await expect(overlay.getByTestId('giveaway-spinner')).toBeVisible();
  await shot(overlay, '04-overlay', true);
  const names = (await winners.allTextContents()).map((t) => t.split(' wins ')[0]!.trim());

  // The verify page recomputes the draw in the browser.
  await watcher.reload();
  await watcher.getByRole('link', { name: 'Verify this draw' }).click();
  await expect(watcher.getByTestId('verify-result')).toContainText('match:');
  await shot(watcher, '05-verify');

  // The points prize is in the winner's ledger once; the item is in Fulfilment once.
  const pointsWinner = viewers[people.findIndex((p) => p.name === names[0])]!;
  await pointsWinner.goto('/activity');
  await expect(pointsWinner.getByTestId('my-ledger').getByText('Raffle prize')).toHaveCount(1);
  await admin.goto('/admin/fulfilment');
  await expect(admin.getByText(`Raffle "${title}": Signed jersey`)).toHaveCount(1);

  // My activity: each viewer's tickets and the result.
  for (const [i, page] of viewers.entries()) {
    await page.goto('/activity');
    const row = page.getByTestId('my-raffle-tickets').getByRole('row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    const won = names.indexOf(people[i]!.name);
    await expect(row).toContainText(won === 0 ? 'Won 500 points' : won === 1 ? 'Won Signed jersey' : 'Not a winner');
  }
  await shot(viewers[1]!, '06-activity');
});
