/**
 * Custom commands and timers (docs/features/custom-commands.md) in the browser with the Chat
 * Simulator: an admin creates a command with a global cooldown on Admin → Commands (an unknown
 * variable is named and nothing saved; the preview fills the template); `!cmd` is answered once
 * in chat and a second caller within the cooldown gets nothing; a timer posts only once its chat
 * lines were written. Cleans up the command and the timer. Screenshots: e2e/screenshots/custom-commands-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';
import { CHAT_TIMERS_TICK_MS } from './suite-server';

const json = { 'x-requested-with': 'kickback' };

interface Overview {
  commands: Array<{ id: string; name: string }>;
  timers: Array<{ id: string; name: string; posts: number }>;
}
const overview = async (admin: Page) =>
  (await (await admin.request.get('/api/admin/commands', { headers: json })).json()) as Overview;

test('a command with a cooldown answers once and ignores the second caller; a timer posts only after its chat lines', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const admin = await context.newPage();
  await signIn(admin, DEMO_ADMIN, { demo: true });
  const stamp = String(Date.now() % 1_000_000);
  const name = `hype${stamp}`;
  const timerName = `Socials ${stamp}`;
  try {
    await admin.goto('/');
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin
      .locator('[aria-labelledby="kb-admin-menu"]')
      .getByRole('link', { name: 'Commands', exact: true })
      .click();
    await expect(admin.getByRole('heading', { name: 'Commands', level: 1 })).toBeVisible();
    await expect(admin.getByRole('row', { name: /!points/ })).toBeVisible(); // the built-ins beside them

    const form = admin.getByRole('form', { name: 'Command' });
    await form.getByLabel('Name (typed as !name)').fill(name);
    await form.getByLabel('Global cooldown (seconds)').fill('600');
    await form.getByLabel('Response').fill('{user} starts the hype {nope}');
    await expect(form.getByText('Unknown variable: {nope}')).toBeVisible();
    await form.getByRole('button', { name: 'Add command' }).click();
    await expect(form.getByRole('alert')).toContainText('Unknown variable: {nope}');

    await form.getByLabel('Response').fill('{user} starts the hype for {target}! (#{count})');
    await expect(form.getByTestId('command-preview')).toHaveText('@viewer viewer starts the hype for someone! (#42)');
    await screenshot(admin, 'custom-commands-editor');
    await form.getByRole('button', { name: 'Add command' }).click();
    await expect(admin.getByText('Command saved.')).toBeVisible();
    await expect(admin.getByRole('row', { name: new RegExp(`!${name}`) })).toContainText('600s global');
    await expectAccessible(admin);

    // In chat: the first caller is answered, the second within the cooldown is not.
    const sim = await context.newPage();
    await sim.goto('/admin/chat-simulator');
    const first = await postInChat(sim, `ann_${stamp}`, `!${name} @vex`);
    await expect(first).toContainText(`@ann_${stamp} ann_${stamp} starts the hype for vex! (#1)`);
    const second = await postInChat(sim, `ben_${stamp}`, `!${name}`);
    await expect(second).toContainText('custom-command');
    await expect(second).not.toContainText('starts the hype');
    await screenshot(sim, 'custom-commands-chat');

    // A timer of 3 chat lines (no minutes), live or not: nothing before the third line.
    const timer = admin.getByRole('form', { name: 'New timer' });
    await timer.getByLabel('Name').fill(timerName);
    await timer.getByLabel('Every (minutes)').fill('0');
    await timer.getByLabel('And at least (chat lines)').fill('3');
    await timer.getByLabel('Only while live').setChecked(false);
    await timer.getByLabel('Message').fill('Follow the socials: {link:home}');
    await timer.getByRole('button', { name: 'Add timer' }).click();
    await expect(admin.getByText('Timer added.')).toBeVisible();
    const posts = async () => (await overview(admin)).timers.find((t) => t.name === timerName)?.posts ?? -1;
    expect(await posts()).toBe(0);
    await postInChat(sim, `cal_${stamp}`, 'first line');
    await postInChat(sim, `cal_${stamp}`, 'second line');
    await admin.waitForTimeout(4 * CHAT_TIMERS_TICK_MS);
    expect(await posts()).toBe(0);
    await postInChat(sim, `cal_${stamp}`, 'third line');
    await expect.poll(posts).toBe(1);
    await admin.reload();
    await expect(admin.getByRole('row', { name: new RegExp(timerName) })).toContainText('after 3 lines');
    await screenshot(admin, 'custom-commands-page');
  } finally {
    const left = await overview(admin);
    for (const c of left.commands.filter((c) => c.name === name)) {
      await admin.request.delete(`/api/admin/commands/${c.id}`, { headers: json });
    }
    for (const t of left.timers.filter((t) => t.name === timerName)) {
      await admin.request.delete(`/api/admin/commands/timers/${t.id}`, { headers: json });
    }
    await context.close();
  }
});
