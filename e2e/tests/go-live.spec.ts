/**
 * Going live without a developer (docs/go-live.md): a fresh site prints a one-time setup link in
 * its log; whoever opens it and signs in becomes the admin, once. A plain sign-in is a User. While
 * sign-in goes through the dev provider every page says so, the OBS overlays excepted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';

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

/** A fresh site of its own (empty database, no demo data): its URL and the setup link it printed. */
async function freshSite(): Promise<{ url: string; setupLink: string; server: ChildProcess }> {
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const setupLink = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no setup link in the log:\n${output}`)), 90_000);
    const read = (d: Buffer) => {
      output += d.toString();
      const m = /"setupLink":"([^"]+)"/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { url, setupLink, server };
}

test('a fresh site: a plain sign-in is a User; the setup link from the log makes the streamer the admin, once', async ({
  browser,
}) => {
  test.setTimeout(180_000); // a second server starts on a machine the suite's server already loads
  const site = await freshSite();
  try {
    expect(site.setupLink).toMatch(new RegExp(`^${site.url}/setup/[\\w-]{32}$`));

    // A viewer who signs in on the fresh site is a User: no Admin menu. The dev banner says what sign-in this is.
    const viewerContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(viewerContext);
    const viewer = await viewerContext.newPage();
    await viewer.goto('/');
    const banner = viewer.getByRole('complementary', { name: 'Development sign-in' });
    await expect(banner).toContainText('anyone can sign in as any account');
    await signIn(viewer, newPerson('Viewer'));
    await expect(viewer.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
    // Not on an OBS overlay.
    await viewer.goto('/overlay/giveaway');
    await expect(viewer.locator('body')).not.toContainText('Dev sign-in is on');

    // The streamer opens the link from the log and signs in.
    const streamerContext = await browser.newContext({
      baseURL: site.url,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await preAcceptAgeGate(streamerContext);
    const streamer = await streamerContext.newPage();
    await streamer.goto(site.setupLink);
    await expect(streamer.getByRole('heading', { name: 'Claim Kickback' })).toBeVisible();
    await signIn(streamer, newPerson('Vex'));
    await screenshot(streamer, 'go-live-claim');
    await streamer.getByRole('button', { name: /^Make .* the admin$/ }).click();
    await expect(streamer.getByText('You are the admin of this site now.')).toBeVisible();
    await expect(streamer.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();
    await screenshot(streamer, 'go-live-claimed');

    // The Admin dropdown's first entry is the Go live checklist: what is missing, and the webhook URL to paste.
    await streamer.getByRole('button', { name: 'Admin', exact: true }).click();
    const firstEntry = streamer.locator('.dropdown-menu.show .dropdown-item').first();
    await expect(firstEntry).toHaveText('Go live');
    await firstEntry.click();
    await expect(streamer.getByRole('heading', { name: 'Go live', level: 1 })).toBeVisible();
    await expect(streamer.getByRole('status').filter({ hasText: 'to do before going live' })).toBeVisible();
    const steam = streamer.locator('[data-golive="steam"]');
    await expect(steam).toHaveAttribute('data-state', 'todo');
    await expect(steam).toContainText('STEAM_API_KEY');
    const webhook = streamer.locator('[data-golive="kick.webhookUrl"]');
    await expect(webhook.locator('code')).toHaveText(`${site.url}/webhooks/kick`);
    await webhook.getByRole('button', { name: 'Copy' }).click();
    await expect(streamer.getByText('Copied.')).toBeVisible();
    expect(await streamer.evaluate(() => navigator.clipboard.readText())).toBe(`${site.url}/webhooks/kick`);
    await expect(streamer.locator('[data-golive="demoData"]')).toHaveAttribute('data-state', 'ready');
    await screenshot(streamer, 'go-live-checklist');

    // The link works once: the viewer opening it later is refused and stays a User.
    await viewer.goto(site.setupLink);
    await viewer.getByRole('button', { name: /^Make .* the admin$/ }).click();
    await expect(viewer.getByText(/This setup link is not valid/)).toBeVisible();
    await viewer.reload();
    await expect(viewer.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  } finally {
    site.server.kill('SIGTERM');
  }
});
