/**
 * The streamer's first run on a production build (docs/go-live.md, docs/features/uploaded-images.md):
 * a fresh site (NODE_ENV=production, PUBLIC_URL and HOST on 127.0.0.1, no demo data, no admin)
 * prints its setup link; the streamer opens it, signs in and is the Admin; on Admin → Settings they
 * rename the site and upload a logo; a new visitor sees both without a restart; Admin → Go live
 * gives the webhook URL with PUBLIC_URL in it and marks what is still missing.
 */
import { expect, test } from './fixtures';
import { expectAccessible, newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';
import { startSite } from './own-site';
import { discPng } from './png';

test('a fresh production site: setup link → Admin → name and uploaded logo seen by a new visitor → Go live', async ({
  browser,
}) => {
  test.setTimeout(240_000); // a second server starts on a machine the suite's server already loads
  const site = await startSite(
    {
      NODE_ENV: 'production',
      SESSION_SECRET: 'first-run-journey-session-secret-0123456789',
      // Dev sign-in in production is allowed only on this machine (PUBLIC_URL and HOST loopback).
      STEAM_SIGNIN: 'dev',
    },
    (output) => /"setupLink":"([^"]+)"/.exec(output)?.[1] ?? null,
    { publicHost: '127.0.0.1' },
  );
  try {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(site.found).toMatch(new RegExp(`^${site.url}/setup/[\\w-]{32}$`));

    // The streamer opens the link from the log and signs in: that account becomes the Admin.
    const streamerContext = await browser.newContext({ baseURL: site.url });
    await preAcceptAgeGate(streamerContext);
    const streamer = await streamerContext.newPage();
    await streamer.goto(site.found);
    await expect(streamer.getByRole('heading', { name: 'Claim Kickback' })).toBeVisible();
    await signIn(streamer, newPerson('Vex'));
    await streamer.getByRole('button', { name: /^Make .* the admin$/ }).click();
    await expect(streamer.getByText('You are the admin of this site now.')).toBeVisible();

    // Admin → Settings: a new name and an uploaded logo.
    await streamer.getByRole('button', { name: 'Admin', exact: true }).click();
    await streamer.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(streamer.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await streamer.getByLabel('Site name').fill('Vex After Dark');
    await streamer.getByLabel('Upload a logo').setInputFiles({
      name: 'vex-logo.png',
      mimeType: 'image/png',
      buffer: discPng(96, [83, 252, 24]),
    });
    await expect(streamer.getByText('Image uploaded.')).toBeVisible();
    const logoField = streamer.getByLabel('Logo URL');
    await expect(logoField).toHaveValue(/^\/api\/images\/[0-9a-f]{64}\.png$/);
    const logoUrl = await logoField.inputValue();
    await expect(streamer.getByAltText('Logo preview')).toHaveAttribute('src', logoUrl);
    await expectAccessible(streamer);
    await screenshot(streamer, 'first-run-settings-logo');
    await streamer.getByRole('button', { name: 'Save' }).click();
    await expect(streamer.getByText('Settings successfully updated.')).toBeVisible();
    await expect(streamer.locator('.kb-brand-name')).toHaveText('Vex After Dark');

    // A new visitor (another browser, not signed in) gets the name and the logo from the same running server.
    const visitorContext = await browser.newContext({ baseURL: site.url, viewport: { width: 1440, height: 900 } });
    await preAcceptAgeGate(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.locator('.kb-brand-name')).toHaveText('Vex After Dark');
    await expect(visitor).toHaveTitle('Vex After Dark');
    const headerLogo = visitor.locator('.kb-header .navbar-brand img');
    await expect(headerLogo).toHaveAttribute('src', logoUrl);
    // Loaded, not a broken image (the CSP lets images from the site itself through).
    await expect.poll(() => headerLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    await expect(visitor.locator('footer img').first()).toHaveAttribute('src', logoUrl);
    await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
    await screenshot(visitor, 'first-run-visitor');

    // Admin → Go live: the webhook URL carries PUBLIC_URL; what is missing is marked To do.
    await streamer.getByRole('button', { name: 'Admin', exact: true }).click();
    await streamer.locator('.dropdown-menu.show .dropdown-item').first().click();
    await expect(streamer.getByRole('heading', { name: 'Go live', level: 1 })).toBeVisible();
    await expect(streamer.locator('[data-golive="kick.webhookUrl"] code')).toHaveText(`${site.url}/webhooks/kick`);
    await expect(streamer.getByRole('status').filter({ hasText: 'to do before going live' })).toBeVisible();
    // Dev sign-in and a plain-http PUBLIC_URL are not ready; production mode and the session secret are.
    await expect(streamer.locator('[data-golive="steam"]')).toHaveAttribute('data-state', 'todo');
    await expect(streamer.locator('[data-golive="https"]')).toHaveAttribute('data-state', 'todo');
    await expect(streamer.locator('[data-golive="production"]')).toHaveAttribute('data-state', 'ready');
    await expect(streamer.locator('[data-golive="sessionSecret"]')).toHaveAttribute('data-state', 'ready');
    await expect(streamer.locator('[data-golive="demoData"]')).toHaveAttribute('data-state', 'ready');
    await screenshot(streamer, 'first-run-go-live');
  } finally {
    site.server.kill('SIGTERM');
  }
});
