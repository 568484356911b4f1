/**
 * Admin → Settings (docs/go-live.md): the admin renames the site and changes its tagline; a new
 * visitor sees the new name in the header and the title at once, without a restart. The journey
 * runs on a site of its own, so the shared server's branding is never changed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { expectAccessible, newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A site of its own (empty database) whose admin is `adminSteamId`; resolves once /healthz answers. */
async function ownSite(adminSteamId: string): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const server = spawn(process.execPath, [serverMain], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      LEADERBOARD_POLLER: '0',
      LOG_LEVEL: 'warn',
      ADMIN_STEAM_IDS: adminSteamId,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`))),
  );
  const ready = expect
    .poll(async () => (await fetch(`${url}/healthz`).catch(() => null))?.status ?? 0, { timeout: 90_000 })
    .toBe(200);
  await Promise.race([ready, exited]);
  return { url, server };
}

test('the admin renames the site on Admin → Settings; a new visitor sees it in the header and title without a restart', async ({
  browser,
}) => {
  test.setTimeout(180_000); // a second server starts on a machine the suite's server already loads
  const adminPerson = newPerson('Owner');
  const site = await ownSite(adminPerson.steamId);
  try {
    const adminContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(adminContext);
    const admin = await adminContext.newPage();
    await admin.goto('/');
    await expect(admin).toHaveTitle('Kickback');
    await signIn(admin, adminPerson);
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(admin.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(admin.getByRole('link', { name: '18+ Gate' })).toBeVisible();

    // A javascript: link is named on its field and nothing is sent.
    const quickLink = admin.getByLabel('Quick link 1 URL');
    await quickLink.fill('javascript:alert(1)');
    await expect(admin.getByText(/quick link URL must be a site path/)).toBeVisible();
    await quickLink.fill('/leaderboard');

    await admin.getByLabel('Site name').fill('Nightshift Live');
    await admin.getByLabel('Tagline').fill('Slots and shows after dark.');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Settings successfully updated.')).toBeVisible();
    // The admin's own page changes at once: header, footer, title.
    await expect(admin.locator('.kb-brand-name')).toHaveText('Nightshift Live');
    await expect(admin).toHaveTitle('Nightshift Live');
    await expect(admin.locator('footer')).toContainText('Slots and shows after dark.');
    await expectAccessible(admin);
    await screenshot(admin, 'admin-settings-saved');

    // A new visitor (another browser) gets the new branding from the same running server.
    // Wide enough that the header spells the name out beside the logo.
    const visitorContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1440, height: 900 } });
    await preAcceptAgeGate(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.locator('.kb-brand-name')).toHaveText('Nightshift Live');
    await expect(visitor.locator('.kb-header').getByText('Nightshift Live', { exact: true })).toBeVisible();
    await expect(visitor).toHaveTitle('Nightshift Live');
    await expect(visitor.locator('footer')).toContainText('Slots and shows after dark.');
    await screenshot(visitor, 'admin-settings-visitor');
  } finally {
    site.server.kill('SIGTERM');
  }
});
