/**
 * docs/features/milestone-rewards.md in the browser: a viewer with a verified Roobet name wagers in
 * the partner simulator past two tiers of the Roobet ladder; `/rewards` (user dropdown) shows both
 * reached, one claim pays the two tiers' points once (My activity shows it), and a second claim is
 * refused in words.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, newPerson, screenshot, signIn } from './helpers';

const json = { 'X-Requested-With': 'kickback' };
const ROOBET = 6;

async function saveLadder(admin: APIRequestContext, tiers: Array<[string, number, number]>) {
  const res = await admin.put(`/api/admin/milestones/${ROOBET}`, {
    headers: json,
    data: {
      enabled: true,
      automatic: false,
      cycle: 'period',
      tiers: tiers.map(([name, threshold, points]) => ({
        name,
        threshold: String(threshold),
        rewardKind: 'points',
        rewardAmount: String(points),
      })),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function refresh(admin: APIRequestContext) {
  const res = await admin.post(`/api/admin/leaderboards/${ROOBET}/refresh`, { headers: json });
  expect(res.status(), await res.text()).toBe(200);
}

test('a verified viewer crosses two tiers: both reached, one claim pays both once, a second claim is refused', async ({
  page,
  browser,
}) => {
  // A Roobet player of the simulator's cast nobody on this server has linked yet: not one of those
  // other journeys on the same server claim (battle: the 13 before the last; partner-verification:
  // the last; daily-rewards: SpinDoctor, PlinkoPete on a retry). Demo users' names answer 409 and
  // are passed over, as is the one a first attempt took.
  const cast: Array<{ id: string; name: string }> = await (
    await page.request.get(`/dev/partners/control/players/${ROOBET}`)
  ).json();
  const viewer = newPerson('Climber');
  await page.goto('/');
  await signIn(page, viewer);
  let player: { id: string; name: string } | undefined;
  for (const candidate of cast.slice(0, -14).filter((p) => !['SpinDoctor', 'PlinkoPete'].includes(p.name))) {
    const saved = await page.request.post('/api/User/ids', { headers: json, data: { RoobetName: candidate.name } });
    if (saved.status() === 409) continue;
    expect(saved.status(), await saved.text()).toBe(200);
    player = candidate;
    break;
  }
  if (!player) throw new Error('every Roobet player of the simulator is linked already');

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, DEMO_ADMIN, { demo: true });
  await adminPage.goto('/admin/verification');
  const claimRow = adminPage.getByTestId('claims-table').locator('tr', { hasText: viewer.name });
  await claimRow.getByRole('button', { name: 'Approve' }).click();
  await adminPage.getByRole('dialog', { name: 'Approve claim' }).getByRole('button', { name: 'Approve claim' }).click();
  await expect(adminPage.getByText('Claim approved.')).toBeVisible();

  // What the player wagered this period so far, as the poller writes it to the ladder.
  await saveLadder(adminPage.request, [['Placeholder', 99_000_000, 1]]);
  await refresh(adminPage.request);
  const mine = async () => {
    const res = await page.request.get('/api/milestones', { headers: json });
    expect(res.status(), await res.text()).toBe(200);
    const { ladders } = (await res.json()) as { ladders: Array<{ site: number; me: { wagered: number } }> };
    return ladders.find((l) => l.site === ROOBET)!.me;
  };
  const start = Math.floor((await mine()).wagered);
  await saveLadder(adminPage.request, [
    ['Bronze', start + 10, 100],
    ['Silver', start + 30, 250],
    ['Gold', start + 50_000_000, 1000],
  ]);

  // The player bets 40 under the code; the next refresh sees both tiers reached.
  const bet = await page.request.post('/dev/partners/control/bet', {
    headers: json,
    data: { site: ROOBET, playerId: player.id, amount: 40 },
  });
  expect(bet.ok()).toBe(true);
  await refresh(adminPage.request);

  // /rewards from the user dropdown.
  await page.reload();
  await page.locator('#kb-user-menu').click();
  await page.locator('.dropdown-menu').getByRole('link', { name: 'Milestone rewards' }).click();
  await expect(page.getByRole('heading', { name: 'Milestone rewards', level: 1 })).toBeVisible();
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Roobet', level: 2 }) });
  const tiers = card.getByTestId('milestone-tier');
  await expect(tiers.nth(0)).toContainText('Reached');
  await expect(tiers.nth(1)).toContainText('Reached');
  await expect(tiers.nth(2)).not.toContainText('Reached');
  await expect(card.getByText('You may claim 350.00 points now.')).toBeVisible();
  await screenshot(page, 'milestones-reached');
  await expectAccessible(page);

  await card.getByRole('button', { name: 'Claim' }).click();
  await expect(page.getByText('Silver reached: 350 points.')).toBeVisible();
  await expect(tiers.nth(1)).toContainText('Paid');
  await expect(card.getByText('You have claimed this tier.')).toBeVisible();
  await card.getByRole('button', { name: 'Claim' }).click();
  await expect(page.locator('.Toastify__toast', { hasText: 'You have claimed this tier.' })).toBeVisible();
  await screenshot(page, 'milestones-claimed');

  // Paid once, in My activity.
  await page.goto('/activity');
  const ledger = page.getByTestId('my-ledger');
  await expect(ledger.locator('tr', { hasText: 'Milestone reward' })).toHaveCount(1);
  await expect(ledger.locator('tr', { hasText: 'Milestone reward' })).toContainText('+350.00 pts');

  // The board links to the ladder.
  await page.goto(`/leaderboard?site=${ROOBET}`);
  await expect(page.getByRole('link', { name: 'Milestone rewards' })).toHaveAttribute(
    'href',
    `/rewards?site=${ROOBET}`,
  );
  await adminContext.close();
});
