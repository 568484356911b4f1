/**
 * Deal or No Deal in the browser: an admin creates a game from the Admin dropdown, the owner plays
 * it to a win and a claim in their own context while a signed-out viewer watches in another; the
 * prize reaches Fulfilment and the owner's My activity; the verification page says "match"; a
 * private game shows "Game Is Private". Screenshots of statuses 1, 2, 3, 4, 8, 6, 0 and the
 * private screen go to /tmp/deal-or-no-deal-*.png (1920×1080, the stream's size).
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectConfettiDrawn, watchConfetti } from './confetti';
import { DEMO_ADMIN, keepScreenshot, newPerson, signIn } from './helpers';

// This journey checks the animations themselves (the confetti, the wheel, the spinner).
test.use({ reducedMotion: 'no-preference' });

const STREAM = { width: 1920, height: 1080 };

async function personPage(browser: Browser, who: { name: string; steamId: string } | null): Promise<Page> {
  const context = await browser.newContext({ viewport: STREAM });
  const page = await context.newPage();
  await page.goto('/');
  if (who) await signIn(page, who, who === DEMO_ADMIN ? { demo: true } : {});
  return page;
}

/** A picture once the modals' fade-in and the box animations have settled. */
async function shot(page: Page, name: string) {
  if (process.env.CI) return; // nobody looks at them there (keepScreenshot): no wait either
  await page.waitForTimeout(600);
  await keepScreenshot(page, { path: `/tmp/deal-or-no-deal-${name}.png` });
}
const statusLine = (page: Page) => page.getByTestId('status-text');

async function createGame(admin: Page, player: string, opts: { isPrivate?: boolean } = {}): Promise<string> {
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Create Deal Or No Deal' }).click();
  await expect(admin.getByRole('heading', { name: 'Create Deal Or No Deal' })).toBeVisible();
  await admin.getByLabel('Player 1', { exact: true }).fill(player);
  await admin.getByRole('option', { name: new RegExp(player) }).click();
  // The board editor is collapsed; it holds the contract's 24 default amounts.
  await expect(admin.getByLabel('Amount 1', { exact: true })).toBeHidden();
  await admin.getByRole('button', { name: 'Change the board' }).click();
  await expect(admin.getByLabel('Amount 1', { exact: true })).toHaveValue('0.01');
  await expect(admin.getByLabel('Amount 24', { exact: true })).toHaveValue('250');
  if (opts.isPrivate) await admin.getByRole('checkbox', { name: 'Private', exact: true }).check();
  await admin.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.getByText('Game successfully created.')).toBeVisible();
  await expect(admin).toHaveURL(/\/game\/dealornodeal\/[0-9a-f-]{36}$/);
  return admin.url();
}

/** The owner opens the first shut box of the grid and waits for the server to take it. */
async function openOne(owner: Page) {
  const before = await owner.locator('.dond-box.is-open').count();
  await owner.locator('.dond-boxes button.dond-box:enabled').first().click();
  await expect(owner.locator('.dond-box.is-open')).toHaveCount(before + 1);
}

test('the owner plays to a win and a claim while a viewer watches; the prize is delivered; the board verifies', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const olive = newPerson('Olive');
  const owner = await personPage(browser, olive);
  const viewer = await personPage(browser, null);
  const cspRefusals = await watchConfetti(viewer);
  const admin = await personPage(browser, DEMO_ADMIN);

  const url = await createGame(admin, olive.name);
  for (const p of [owner, viewer]) await p.goto(url);

  // 1: waiting for the owner; only the owner has the Start button.
  await expect(statusLine(viewer)).toHaveText(`Waiting for ${olive.name} to start.`);
  await expect(viewer.locator('.dond-amount')).toHaveCount(24);
  await expect(viewer.locator('.dond-board-left .dond-amount').first()).toHaveText('$0.01');
  await expect(viewer.locator('.dond-board-right .dond-amount').last()).toHaveText('$250.00');
  await expect(viewer.getByRole('button', { name: 'Start the game' })).toHaveCount(0);
  await shot(viewer, '1-waiting');

  // 2: pick your box.
  await owner.getByRole('button', { name: 'Start the game' }).click();
  await expect(statusLine(viewer)).toHaveText('Pick a box to start.');
  await expect(viewer.locator('.dond-boxes button.dond-box:enabled')).toHaveCount(0); // watchers cannot pick
  await shot(owner, '2-pick-your-box');

  // 3: the owner's box goes to its podium; the rounds begin.
  await owner.getByRole('button', { name: 'Box 7', exact: true }).click();
  await expect(statusLine(viewer)).toHaveText('Select 6 more case(s)');
  await expect(viewer.getByTestId('primary-box')).toContainText('7');
  await openOne(owner);
  await expect(statusLine(viewer)).toHaveText('Select 5 more case(s)');
  await expect(viewer.locator('.dond-amount.is-out')).toHaveCount(1);
  await expect(viewer.locator('.dond-amount.is-out s')).toHaveCount(1); // struck through
  await shot(viewer, '3-opening');

  // Play every round with No Deal; a picture of the first offer (4) and of the swap (8).
  // Each turn waits until the owner's page offers something to do (the viewer's page may lag).
  let offers = 0;
  const offer = viewer.getByRole('dialog').filter({ hasText: 'The Bank is calling' });
  const ownerOffer = owner.getByRole('dialog').filter({ hasText: 'The Bank is calling' });
  const ownerSwap = owner.getByRole('dialog').filter({ hasText: 'Two boxes left' });
  const shutBox = owner.locator('.dond-boxes button.dond-box:enabled').first();
  for (;;) {
    await expect(ownerOffer.or(ownerSwap).or(shutBox).first()).toBeVisible();
    if (await ownerSwap.isVisible()) break;
    if (await ownerOffer.isVisible()) {
      offers += 1;
      await expect(offer.getByText(/is deciding/)).toBeVisible(); // the viewer gets no buttons
      if (offers === 1) {
        await expect(statusLine(viewer)).toHaveText('The bank is making an offer: Deal or No Deal?');
        await shot(viewer, '4-bank-offer');
      }
      await ownerOffer.getByRole('button', { name: 'No Deal' }).click();
      await expect(offer).toBeHidden();
      // The owner's dialog too: while it fades out it is still visible, and the next turn would
      // count it as a new offer.
      await expect(ownerOffer).toBeHidden();
      continue;
    }
    await openOne(owner);
  }
  expect(offers).toBe(7);
  await expect(statusLine(viewer)).toHaveText('Two boxes left: change it or keep it?');
  await shot(viewer, '8-swap-offer');

  // 6: change it → the win screen with confetti, every box open.
  await owner.getByRole('dialog').getByRole('button', { name: 'Change it' }).click();
  const win = viewer.getByRole('dialog').filter({ hasText: 'Congratulations! You won $' });
  await expect(win).toBeVisible();
  await expectConfettiDrawn(viewer, cspRefusals);
  const wonText = (await win.locator('.dond-win-title').textContent()) ?? '';
  const won = /\$([\d,.]+)/.exec(wonText)![1]!;
  await expect(viewer.locator('.dond-boxes .dond-box.is-open')).toHaveCount(23);
  await expect(viewer.getByTestId('primary-box')).toContainText(`$${won}`);
  await expect(viewer.locator('.dond-amount.is-own')).toHaveText(`$${won}`); // lit on the board, not struck
  await shot(viewer, '6-won');

  // 0: finished and claimable after the win screen; the owner claims, a visitor is offered Sign In.
  await expect(owner.getByRole('button', { name: 'Claim The Game' })).toBeVisible({ timeout: 20_000 });
  await expect(viewer.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Claim The Game' })).toHaveCount(0);
  await shot(owner, '0-claimable');
  await owner.getByRole('button', { name: 'Claim The Game' }).click();
  await expect(statusLine(viewer)).toHaveText('Prize claimed.');
  await expect(owner.getByTestId('result')).toHaveText(`${olive.name} won $${won} by changing box.`);

  // The prize is in the fulfilment queue, in dollars …
  await admin.goto('/admin/fulfilment');
  const row = admin.getByRole('row').filter({ hasText: olive.name }).filter({ hasText: 'Deal or No Deal' });
  await expect(row).toContainText(`$${won}`);
  await expect(row).toContainText(/pending/i);
  // … the owner follows it in My activity, through to Delivered.
  await owner.goto('/activity');
  const mine = owner.getByTestId('my-payouts').getByRole('row').filter({ hasText: 'Deal or No Deal' });
  await expect(mine).toContainText(`$${won}`);
  await row.getByRole('button', { name: /^Mark .* delivered$/ }).click();
  await admin.getByLabel(/^Note/).fill('Tip 4242');
  await admin.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(admin.getByText('Marked as delivered.')).toBeVisible();
  await owner.reload();
  await expect(mine).toContainText('Delivered');
  await expect(mine).toContainText('Tip 4242');

  // The verification page recomputes the commitment in the browser.
  await viewer.getByRole('link', { name: 'Verify the board' }).click();
  await expect(viewer.getByText(/^match/)).toBeVisible();
  await shot(viewer, 'verify');

  // A private game: others see "Game Is Private" with Sign In.
  const privateUrl = await createGame(admin, olive.name, { isPrivate: true });
  const stranger = await personPage(browser, null);
  await stranger.goto(privateUrl);
  await expect(stranger.getByRole('heading', { name: 'Game Is Private' })).toBeVisible();
  await expect(stranger.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await shot(stranger, 'private');
  await owner.goto(privateUrl);
  await expect(statusLine(owner)).toHaveText(`Waiting for ${olive.name} to start.`);

  for (const p of [owner, viewer, admin, stranger]) await p.context().close();
});

test('a User cannot open the create page', async ({ page }) => {
  await page.goto('/');
  await signIn(page, newPerson('Nosy'));
  await page.goto('/createdealornodeal');
  await expect(page).toHaveURL(/\/$/);
});

test('a failed create enables the button again and stays on the form', async ({ browser }) => {
  const admin = await personPage(browser, DEMO_ADMIN);
  await admin.goto('/createdealornodeal');
  await admin.getByRole('button', { name: 'Change the board' }).click();
  await admin.getByLabel('Amount 3', { exact: true }).fill('0.001'); // more than 2 decimals
  const create = admin.getByRole('button', { name: 'Create', exact: true });
  await create.click();
  await expect(create).toBeEnabled();
  // Each problem is said on its own field: the missing player and the box amount.
  await expect(admin.getByText('Pick the player from the list.')).toBeVisible();
  await expect(admin.getByText('Use at most 2 decimals, like 12.50.')).toBeVisible();
  await expect(admin.getByLabel('Amount 3', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(admin).toHaveURL(/\/createdealornodeal$/);
  await expect(admin.getByText('Game successfully created.')).toHaveCount(0);
  await admin.context().close();
});
