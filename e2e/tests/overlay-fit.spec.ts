/**
 * Every OBS overlay at 1920×1080 with the longest names and the largest numbers the forms accept:
 * no text is cut — no element's text is wider than its box, and none sticks out of the overlay's
 * panel or the frame. The list of overlays is the web app's own (common/overlays), so a new overlay
 * without a case here fails this test. Screenshots: /tmp/overlay-fit-*.png over a dark "stream".
 */
import type { Page } from '@playwright/test';
import { overlayPaths, type OverlayPath } from '@kickback/common/overlays';
import { expect, test } from './fixtures';
import { clearPredictions, grantPoints, linkedChatter, postInChat } from './chat-helpers';
import { DEMO_ADMIN, keepScreenshot, newPerson, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };
const FRAME = { width: 1920, height: 1080 };

/** `words` repeated to exactly `length` characters, ending on a letter. */
const longText = (words: string, length: number) =>
  words
    .repeat(Math.ceil(length / words.length) + 1)
    .slice(0, length)
    .trimEnd()
    .padEnd(length, 'x');

/** What does not fit: text wider than its box, or outside the panel or the frame (the reel scrolls by design). */
function unfitText(page: Page, panelSelector: string): Promise<string[]> {
  return page.evaluate(
    ({ selector, frame }) => {
      const bad: string[] = [];
      const panels = Array.from(document.querySelectorAll<HTMLElement>(selector));
      if (panels.length === 0) return [`no ${selector} on the page`];
      for (const panel of panels) {
        const box = panel.getBoundingClientRect();
        if (box.left < -0.5 || box.top < -0.5 || box.right > frame.width + 0.5 || box.bottom > frame.height + 0.5)
          bad.push(`${selector} leaves the ${frame.width}×${frame.height} frame`);
        for (const el of [panel, ...Array.from(panel.querySelectorAll<HTMLElement>('*'))]) {
          const hasText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
          // Text only screen readers meet (an overlay's hidden h1) is clipped on purpose.
          if (!hasText || el.closest('.kb-visually-hidden, .visually-hidden')) continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          const what = `"${el.textContent!.trim().slice(0, 48)}"`;
          if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
            bad.push(`${what} is wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
          if (el.closest('[data-testid="giveaway-spinner"]')) continue;
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5) bad.push(`${what} sticks out of the panel`);
        }
      }
      return bad;
    },
    { selector: panelSelector, frame: FRAME },
  );
}

async function dark(overlay: Page, name: string) {
  await overlay.evaluate(() =>
    document.documentElement.style.setProperty('background', 'linear-gradient(135deg, #1b2230, #0c0f14)', 'important'),
  );
  await keepScreenshot(overlay, { path: `/tmp/overlay-fit-${name}.png` });
  await overlay.evaluate(() => document.documentElement.style.removeProperty('background'));
}

type Setup = (admin: Page, overlay: Page) => Promise<string>;

/** Leaves no running hunt and no live prediction behind for the journeys that run after this one. */
async function cleanUp(admin: Page) {
  const goal = { title: 'Overlay fit', target: 1, reward: '', active: false };
  await admin.request.put('/api/admin/community-goals/1', { headers: json, data: goal });
  await admin.request.post('/api/admin/slot-calls/clear', { headers: json });
  await admin.request.post('/api/admin/slot-calls/close', { headers: json });
  const hunts = (await (await admin.request.get('/api/hunts', { headers: json })).json()) as {
    current: { id: string; bonuses: Array<{ id: string; payout: number | null }> } | null;
  };
  if (hunts.current) {
    for (const b of hunts.current.bonuses.filter((x) => x.payout === null)) {
      const r = await admin.request.post(`/api/admin/hunts/${hunts.current.id}/bonuses/${b.id}/open`, {
        headers: json,
        data: { payout: 0 },
      });
      expect(r.ok(), await r.text()).toBe(true);
    }
    const r = await admin.request.post(`/api/admin/hunts/${hunts.current.id}/finish`, { headers: json });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await clearPredictions(admin);
  const battles = (await (await admin.request.get('/api/admin/battles', { headers: json })).json()) as Array<{
    id: string;
    status: string;
  }>;
  for (const b of battles.filter((x) => x.status !== 'finished' && x.status !== 'cancelled')) {
    const r = await admin.request.post(`/api/admin/battles/${b.id}/cancel`, { headers: json, data: { reason: 'e2e' } });
    expect(r.ok(), await r.text()).toBe(true);
  }
}

/** A viewer signed in through the dev provider's form over HTTP, named `name`. */
async function viewerRequest(admin: Page, name: string) {
  const context = await admin.context().browser()!.newContext();
  const login = await context.request.get('/auth/steam/signin?returnTo=/');
  const action = /<form method="post" action="([^"]+)">/.exec(await login.text())![1]!.replaceAll('&amp;', '&');
  const steamid = newPerson().steamId;
  expect((await context.request.post(action, { form: { personaname: name, steamid } })).ok()).toBe(true);
  return context.request;
}

const setups: Record<OverlayPath, Setup> = {
  async '/overlay/battle'(admin, overlay) {
    // The longest title and slot names the form takes, and the longest display names.
    const created = await admin.request.post('/api/admin/battles', {
      headers: json,
      data: {
        title: longText('Massive Friday Bonus Buy Battle ', 100),
        size: 4,
        registrationMinutes: 30,
        prize: { kind: 'item', item: longText('Signed hoodie ', 200) },
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const id = ((await created.json()) as { id: string }).id;
    const stamp = String(Date.now() % 10000).padStart(4, '0');
    for (const c of ['W', 'M']) {
      const request = await viewerRequest(admin, `${c.repeat(28)}${stamp}`);
      expect((await request.post(`/api/battles/${id}/enter`, { headers: json })).ok()).toBe(true);
      const slot = longText('Wanted Dead or a Wild Megaways ', 60);
      expect((await request.put(`/api/battles/${id}/slot`, { headers: json, data: { slot } })).ok()).toBe(true);
    }
    expect((await admin.request.post(`/api/admin/battles/${id}/close`, { headers: json })).ok()).toBe(true);
    await overlay.goto('/overlay/battle');
    await expect(overlay.getByTestId('current-match')).toBeVisible();
    return '.kbb-overlay';
  },
  async '/overlay/alerts'(admin, overlay) {
    await overlay.goto('/overlay/alerts?seconds=60');
    await expect(overlay.getByRole('main', { name: 'Support alerts overlay' })).toHaveAttribute(
      'data-connected',
      'true',
    );
    const sim = await admin.context().newPage();
    await sim.goto('/admin/chat-simulator');
    const stamp = String(Date.now() % 1000).padStart(3, '0');
    const kickName = `${'W'.repeat(20)}_${stamp}W`; // the longest Kick name there is, wide letters
    await linkedChatter(admin.context().browser()!, sim, admin, 'AlertFit', 0, { kickName });
    const sent = await admin.request.post('/api/admin/support-rewards/simulate', {
      headers: json,
      // KICKs, not gifted subs: a gift waits on hold before it pays (docs/features/support-rewards.md#gifts-on-hold).
      data: { kind: 'kicks', username: kickName, units: 100 },
    });
    expect(await sent.json()).toEqual({ status: 200 });
    await expect(overlay.getByRole('status')).toContainText('sent 100 KICKs');
    await sim.close();
    return '.kba-alert';
  },

  async '/overlay/hunt'(admin, overlay) {
    await cleanUp(admin);
    const started = await admin.request.post('/api/admin/hunts', {
      headers: json,
      data: {
        name: longText('Sunday Mega Hunt with Extraordinarily Long Titles ', 80),
        startCost: 100_000_000,
        guessPrize: 100_000_000,
      },
    });
    expect(started.ok(), await started.text()).toBe(true);
    const huntId = ((await started.json()) as { id: string }).id;
    const bonuses: Array<[number, number | null]> = [
      [1, 1500], // 1,500.00x
      [0.01, 100_000_000], // 10,000,000,000.00x
      [100_000_000, 100_000_000],
      [100_000_000, null], // the one being opened
      [99_999_999.99, null],
    ];
    for (const [i, [bet, payout]] of bonuses.entries()) {
      const added = await admin.request.post(`/api/admin/hunts/${huntId}/bonuses`, {
        headers: json,
        data: {
          slot: longText(`Wanted Dead or a Wild Megaways Deluxe Edition ${i + 1} `, 80),
          provider: longText('Pragmatic Play Extraordinary Studios ', 60),
          bet,
          cost: 100_000_000,
        },
      });
      expect(added.ok(), await added.text()).toBe(true);
      if (payout === null) continue;
      const view = (await added.json()) as { bonuses: Array<{ id: string }> };
      const opened = await admin.request.post(`/api/admin/hunts/${huntId}/bonuses/${view.bonuses.at(-1)!.id}/open`, {
        headers: json,
        data: { payout },
      });
      expect(opened.ok(), await opened.text()).toBe(true);
    }
    await overlay.goto('/overlay/hunt');
    await expect(overlay.locator('.kbh-head')).toContainText('3/5');
    await expect(overlay.locator('.kbh-list')).toContainText('1,500.00x');
    await expect(overlay.locator('.kbh-list')).toContainText('10,000,000,000.00x');
    return '.kbh-panel';
  },

  async '/overlay/calls'(admin, overlay) {
    await admin.request.post('/api/admin/slot-calls/clear', { headers: json });
    await admin.request.post('/api/admin/slot-calls/open', { headers: json });
    const sim = await admin.context().newPage();
    await sim.goto('/admin/chat-simulator');
    const stamp = String(Date.now() % 1000).padStart(3, '0');
    const kickName = `${'W'.repeat(20)}_${stamp}W`; // the longest Kick name there is, wide letters
    // The longest slot name a call takes (60 characters), not in the catalogue: accepted as typed.
    await postInChat(sim, kickName, `!sr ${longText('Wwwwanted Mmmmegaways Extraordinary ', 60)}`);
    await overlay.goto('/overlay/calls');
    await expect(overlay.getByTestId('calls-overlay-next')).toContainText(kickName);
    await sim.close();
    return '.kbc-panel';
  },

  async '/kick/prediction/overlay'(admin, overlay) {
    await cleanUp(admin);
    const colours = [
      '#53fc18',
      '#f5c542',
      '#ff4d6d',
      '#4dd2ff',
      '#b38cff',
      '#ffffff',
      '#ff9f1c',
      '#2ec4b6',
      '#e71d36',
      '#cbf3f0',
    ];
    const opened = await admin.request.post('/api/predictions', {
      headers: json,
      data: {
        question: longText('Will the streamer finally hit the maximum win on this incredibly volatile slot? ', 200),
        answers: colours.map((color, i) => ({
          text: longText(`Answer ${i + 1}: absolutely yes, without any doubt whatsoever `, 60),
          color,
        })),
      },
    });
    expect(opened.ok(), await opened.text()).toBe(true);
    await overlay.goto('/kick/prediction/overlay');
    await expect(overlay.locator('.kbp-panel')).toContainText('ACTIVE');
    await expect(overlay.locator('[data-answer="10"]')).toBeVisible();
    return '.kbp-panel';
  },

  async '/overlay/goal'(admin, overlay) {
    // The longest title and reward the form takes, and the largest target, reached.
    const saved = await admin.request.put('/api/admin/community-goals/1', {
      headers: json,
      data: {
        title: longText('Wager a Million on the Code This Week ', 80),
        target: 1_000_000_000,
        reward: longText('Everybody on the board enters the Karambit Fade giveaway ', 200),
        active: true,
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    await overlay.goto('/overlay/goal?site=clash');
    await expect(overlay.getByTestId('goal-overlay-clash')).toBeVisible();
    return '.kbg-panel';
  },

  async '/overlay/raffle'(admin, overlay) {
    // The longest title and item prize the form accepts; the admin holds the one ticket.
    const created = await admin.request.post('/api/admin/raffles', {
      headers: json,
      data: {
        title: longText('Mega Raffle with an Extraordinarily Long Title ', 100),
        prizes: [{ kind: 'item', item: longText('Karambit | Fade Factory New StatTrak ', 200) }],
        ticketPrice: 1,
        maxTicketsPerUser: 100_000,
        opensAt: new Date(Date.now() - 60_000).toISOString(),
        closesAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const id = ((await created.json()) as { raffle: { id: string } }).raffle.id;
    expect((await admin.request.post(`/api/admin/raffles/${id}/open`, { headers: json })).ok()).toBe(true);
    await grantPoints(admin, DEMO_ADMIN.name, 1, 'overlay fit raffle');
    const bought = await admin.request.post(`/api/raffles/${id}/tickets`, { headers: json, data: { quantity: 1 } });
    expect(bought.ok(), await bought.text()).toBe(true);
    await overlay.goto('/overlay/raffle');
    await expect(overlay.getByTestId('raffle-overlay')).toBeVisible();
    expect((await admin.request.post(`/api/admin/raffles/${id}/draw`, { headers: json })).ok()).toBe(true);
    await expect(overlay.getByTestId('raffle-winners').getByRole('listitem')).toHaveCount(1, { timeout: 10_000 });
    return '.kb-overlay';
  },

  async '/overlay/giveaway'(admin, overlay) {
    await admin.goto('/giveaway');
    const key = `!fit${Date.now() % 100000}`;
    await admin.getByPlaceholder('Add new key..').fill(key);
    await admin.getByPlaceholder('Add new key..').press('Enter');
    await expect(admin.getByTestId('keys-select')).toContainText(key);
    await admin.getByRole('button', { name: 'Clear Participants' }).click();
    await expect(admin.getByTestId('participant-count')).toHaveText('0 participants');
    await overlay.goto('/overlay/giveaway');
    // Another journey's roll may be shown as the last result; either way the count is there.
    await expect(overlay.getByTestId('overlay-count')).toHaveText('0 participants');
    const sim = await admin.context().newPage();
    await sim.goto('/admin/chat-simulator');
    const stamp = String(Date.now() % 1000).padStart(3, '0');
    // The longest Kick names there are (25 characters), wide letters first.
    const names = ['W', 'M', 'O'].map((c) => `${c.repeat(20)}_${stamp}${c}`);
    for (const name of names) await postInChat(sim, name, key);
    await expect(overlay.getByTestId('overlay-count')).toHaveText('3 participants');
    expect(await unfitText(overlay, '.kb-overlay')).toEqual([]);
    await dark(overlay, 'giveaway-before');
    await admin.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect(overlay.getByTestId('overlay-winner')).toBeVisible({ timeout: 10_000 });
    await sim.close();
    return '.kb-overlay';
  },
};

for (const path of overlayPaths) {
  test(`${path} at 1920×1080 shows the longest names and the largest numbers whole`, async ({ browser }) => {
    test.setTimeout(240_000);
    const admin = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await signIn(admin, DEMO_ADMIN, { demo: true });
    const overlay = await (await browser.newContext({ viewport: FRAME })).newPage();
    const panel = await setups[path](admin, overlay);
    expect(await unfitText(overlay, panel)).toEqual([]);
    await dark(overlay, path.replaceAll('/', '-').slice(1));
    await cleanUp(admin);
  });
}
