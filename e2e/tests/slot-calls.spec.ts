/**
 * Slot calls (docs/features/slot-calls.md) in the browser with the Chat Simulator: the broadcaster
 * opens the queue with `!calls open`; three viewers call — one a blacklisted slot (told why), one a
 * misspelled catalogue name — and /calls and the OBS overlay show the two normalised calls live; a
 * call goes into the running bonus hunt with "Add to hunt", and opening that bonus at 250× pays its
 * caller once. Cleans up: queue cleared and closed, hunt finished, rules back to the defaults.
 * Screenshots: /tmp/slot-calls-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };
const DEFAULT_RULES = {
  maxPerViewer: 1,
  cooldownSeconds: 0,
  cost: 0,
  linkedOnly: false,
  subsOnly: false,
  maxQueue: 50,
  unknownSlots: 'accept',
  blacklist: [] as string[],
  payoutMultiplier: 100,
  payoutPoints: 0,
};

async function pointsOf(admin: Page, name: string): Promise<number> {
  const found = await admin.request.get(`/api/admin/users?query=${encodeURIComponent(name)}`, { headers: json });
  return ((await found.json()) as { items: Array<{ points: number }> }).items[0]!.points;
}

async function overlayShot(overlay: Page, name: string) {
  await overlay.evaluate(() =>
    document.documentElement.style.setProperty('background', 'linear-gradient(135deg, #1b2230, #0c0f14)', 'important'),
  );
  await overlay.screenshot({ path: `/tmp/slot-calls-overlay-${name}.png` });
  await overlay.evaluate(() => document.documentElement.style.removeProperty('background'));
}

/** Leaves no open queue, no waiting call, no running hunt and the default rules. */
async function cleanUp(admin: Page) {
  await admin.request.post('/api/admin/slot-calls/clear', { headers: json });
  await admin.request.post('/api/admin/slot-calls/close', { headers: json });
  await admin.request.put('/api/admin/slot-calls/rules', { headers: json, data: DEFAULT_RULES });
  const hunts = (await (await admin.request.get('/api/hunts', { headers: json })).json()) as {
    current: { id: string; bonuses: Array<{ id: string; payout: number | null }> } | null;
  };
  if (!hunts.current) return;
  for (const b of hunts.current.bonuses.filter((x) => x.payout === null)) {
    await admin.request.post(`/api/admin/hunts/${hunts.current.id}/bonuses/${b.id}/open`, {
      headers: json,
      data: { payout: 0 },
    });
  }
  await admin.request.post(`/api/admin/hunts/${hunts.current.id}/finish`, { headers: json });
}

test('!calls open, three !sr calls, the queue live on /calls and the overlay, Add to hunt, a 250x bonus pays its caller once', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  await cleanUp(admin);
  try {
    const sim = await adminContext.newPage();
    await sim.goto('/admin/chat-simulator');
    const ann = await linkedChatter(browser, sim, admin, 'CallAnn', 0);
    // Calls are free and need no linked account here: only Ann, who is paid, links hers.
    const stamp = String(Date.now() % 100000);
    const ben = { kickName: `ben_${stamp}` };
    const cal = { kickName: `cal_${stamp}` };

    // The admin sets the rules on Admin → Slot calls: Sweet Bonanza blacklisted, 500 points from 100x.
    await admin.goto('/');
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin
      .locator('[aria-labelledby="kb-admin-menu"]')
      .getByRole('link', { name: 'Slot calls', exact: true })
      .click();
    await expect(admin.getByRole('heading', { name: 'Slot calls', level: 1 })).toBeVisible();
    const rules = admin.getByRole('form', { name: 'Slot call rules' });
    await rules.getByLabel('Blacklist (slots or providers, one a line)').fill('Sweet Bonanza');
    await rules.getByLabel('Hunt payout from (x)').fill('100');
    await rules.getByLabel('Hunt payout (points, 0 = none)').fill('500');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(admin.getByText('Rules saved.')).toBeVisible();

    const overlay = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await overlay.goto('/overlay/calls');
    await expect(overlay.getByTestId('calls-overlay')).toBeVisible();
    const viewer = await (await browser.newContext()).newPage();
    await viewer.goto('/');
    await viewer.getByRole('link', { name: 'See the queue' }).click();
    await expect(viewer).toHaveURL(/\/calls$/);
    await expect(viewer.getByRole('heading', { name: 'Slot calls', level: 1 })).toBeVisible();

    // The broadcaster opens the queue from chat (the broadcaster badge); the admin page follows.
    await expect(await postInChat(sim, 'vex', '!calls open')).toContainText('@vex slot calls are open');
    await expect(admin.getByTestId('calls-state')).toHaveText('Open');
    await expect(overlay.getByText('type !sr [SLOT]')).toBeVisible();

    // Three calls: one normalised, one misspelled (matched), one blacklisted (refused with the reason).
    await expect(await postInChat(sim, ann.kickName, '!sr gates-of-olympus')).toContainText(
      `@${ann.kickName} call taken: Gates of Olympus.`,
    );
    await expect(await postInChat(sim, ben.kickName, '!sr wanted dead or a wlid')).toContainText(
      `@${ben.kickName} call taken: Wanted Dead or a Wild.`,
    );
    await expect(await postInChat(sim, cal.kickName, '!sr sweet bonanza')).toContainText(
      `@${cal.kickName} Sweet Bonanza is blacklisted here: call another slot.`,
    );

    const queue = viewer.getByRole('table', { name: 'Slot call queue' });
    await expect(queue.getByTestId('slot-call')).toHaveCount(2);
    await expect(queue.getByTestId('slot-call').nth(0)).toContainText('Gates of Olympus');
    await expect(queue.getByTestId('slot-call').nth(0)).toContainText(ann.kickName);
    await expect(queue.getByTestId('slot-call').nth(1)).toContainText('Wanted Dead or a Wild');
    await expect(queue.getByTestId('slot-call').nth(1)).toContainText('typed “wanted dead or a wlid”');
    await expect(queue).not.toContainText('Sweet Bonanza');
    await expect(overlay.getByTestId('calls-overlay-next')).toContainText('Gates of Olympus');
    await expect(overlay.getByTestId('calls-overlay-next')).toContainText(`called by ${ann.kickName}`);
    await expect(overlay.getByTestId('calls-overlay-count')).toHaveText('2 in the queue');
    await overlayShot(overlay, 'two-calls');
    await expectAccessible(viewer);
    await viewer.screenshot({ path: '/tmp/slot-calls-public.png', fullPage: true });

    // A hunt is running; "Add to hunt" puts Ann's call in it with her name.
    const started = await admin.request.post('/api/admin/hunts', {
      headers: json,
      data: { name: 'Calls hunt', startCost: 100, guessPrize: 0 },
    });
    expect(started.ok(), await started.text()).toBe(true);
    const adminQueue = admin.getByRole('table', { name: 'Slot call queue' });
    const annRow = adminQueue.getByTestId('slot-call').filter({ hasText: 'Gates of Olympus' });
    await annRow.getByLabel('Bet for Gates of Olympus').fill('2');
    await annRow.getByRole('button', { name: 'Add to hunt' }).click();
    await expect(admin.getByText(`Gates of Olympus (${ann.kickName}) is in the hunt.`)).toBeVisible();
    await expect(adminQueue.getByTestId('slot-call')).toHaveCount(1);
    await expect(overlay.getByTestId('calls-overlay-next')).toContainText('Wanted Dead or a Wild');
    await expect(overlay.getByTestId('calls-overlay-count')).toHaveText('1 in the queue');
    await expectAccessible(admin);
    await admin.screenshot({ path: '/tmp/slot-calls-admin.png', fullPage: true });

    // The bonus is opened at 250x on Run Bonus Hunt: Ann is paid 500 points, once.
    const before = await pointsOf(admin, ann.name);
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Run Bonus Hunt' }).click();
    const bonuses = admin.getByRole('table', { name: 'Bonuses' });
    await expect(bonuses).toContainText(`Gates of Olympus · called by ${ann.kickName}`);
    await admin.getByRole('button', { name: 'Close guessing' }).click();
    await expect(admin.getByText('Guessing closed.')).toBeVisible();
    await admin.getByLabel('Payout').fill('500');
    await admin.getByLabel('Payout').press('Enter');
    await expect(bonuses).toContainText('250.00x');
    await expect.poll(() => pointsOf(admin, ann.name)).toBe(before + 500);
    const recent = viewer.getByRole('table', { name: 'Recent slot calls' });
    await expect(recent.getByTestId('slot-call').filter({ hasText: 'Gates of Olympus' })).toContainText(
      'In the hunt · 250.00x · caller paid 500.00 pts',
    );
    await admin.getByRole('button', { name: 'Finish hunt' }).click();
    await expect(admin.getByText('Hunt finished.')).toBeVisible();
    expect(await pointsOf(admin, ann.name)).toBe(before + 500);
    await viewer.screenshot({ path: '/tmp/slot-calls-public-paid.png', fullPage: true });

    // Closed from chat at the end: a call is refused.
    await expect(await postInChat(sim, 'vex', '!calls close')).toContainText('@vex slot calls are closed.');
    await expect(await postInChat(sim, cal.kickName, '!sr mental')).toContainText('slot calls are closed right now.');
  } finally {
    await cleanUp(admin);
  }
});
