/** Shared steps of the browser journeys: signing in through the popup as a person does. */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGE_CONFIRMED } from './age-gate-state';
import { seriousViolations, waitForSettled } from './axe-every-page';

export const DEMO_ADMIN = { name: 'StreamerAdmin', steamId: '76561199999999001' };
/** The dev provider's demo Moderator (seeded with the demo data); picked by name on the dev sign-in page. */
export const DEMO_MODERATOR = { name: 'ModMia' };

export { AGE_CONFIRMED, ageGateAccepted } from './age-gate-state';

/** For a context made with its own storageState: confirm the gate before any page loads. */
export async function preAcceptAgeGate(context: BrowserContext) {
  await context.addInitScript(({ name, value }) => {
    if (!localStorage.getItem(name)) localStorage.setItem(name, value);
  }, AGE_CONFIRMED);
}

let counter = 0;
/** A fresh identity for a test: unique SteamID64 and display name. */
export function newPerson(prefix = 'Viewer'): { name: string; steamId: string } {
  counter += 1;
  const n = (Date.now() % 1_000_000_000) + counter;
  return { name: `${prefix}${String(n).slice(-5)}`, steamId: `7656119${String(8_000_000_000 + n).padStart(10, '0')}` };
}

/**
 * Clicks Sign In, fills the dev provider's popup (or picks a demo user), waits for the header. On a
 * phone-sized page the sign-in runs in the same tab and comes back to the page.
 */
export async function signIn(page: Page, person: { name: string; steamId?: string }, opts: { demo?: boolean } = {}) {
  if (page.url() === 'about:blank') await page.goto('/');
  if ((page.viewportSize()?.width ?? 1280) < 576) {
    const here = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/dev\/openid\/login/);
    if (opts.demo) {
      await page.getByRole('button', { name: new RegExp(person.name) }).click();
    } else {
      await page.getByLabel('Display name').fill(person.name);
      if (!person.steamId) throw new Error('signIn: a SteamID64, or demo: true');
      await page.getByLabel('SteamID64').fill(person.steamId);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    }
    await page.waitForURL((url) => url.pathname === here);
    await expect(page.getByText('Signed in.')).toBeVisible();
    return;
  }
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const popup = await popupPromise;
  await expect(page.getByRole('dialog', { name: 'Logging In' })).toBeVisible();
  await popup.waitForLoadState();
  const closed = popup.waitForEvent('close');
  if (opts.demo) {
    await popup.getByRole('button', { name: new RegExp(person.name) }).click();
  } else {
    await popup.getByLabel('Display name').fill(person.name);
    if (!person.steamId) throw new Error('signIn: a SteamID64, or demo: true');
    await popup.getByLabel('SteamID64').fill(person.steamId);
    await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
  }
  await closed;
  await expect(page.getByText('Signed in.')).toBeVisible();
  await expect(page.locator('#kb-user-menu')).toContainText(person.name);
}

export async function signOut(page: Page) {
  await page.locator('#kb-user-menu').click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('Signed out.')).toBeVisible();
}

const shotsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/**
 * Saves a full-page screenshot for people to look at (e2e/screenshots, not committed). CI has
 * nobody to look at them: there the step is skipped (a full-page capture costs up to a second).
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.CI) return;
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

/**
 * `target.screenshot(options)` for people to look at (a picture in /tmp or e2e/screenshots that no
 * assertion reads): skipped in CI like `screenshot`, where nobody looks at them
 * (docs/conventions.md#test-speed).
 */
export async function keepScreenshot(
  target: { screenshot(options: { path: string; fullPage?: boolean; omitBackground?: boolean }): Promise<unknown> },
  options: { path: string; fullPage?: boolean; omitBackground?: boolean },
) {
  if (process.env.CI) return;
  await target.screenshot(options);
}

/** axe-core: no serious or critical violation (nor a structure one) on the current page, now. */
export async function expectAccessible(page: Page) {
  // A toast sliding, a transition or the confetti would be judged mid-way: let the page settle first.
  await waitForSettled(page).catch(() => undefined);
  expect(await seriousViolations(page)).toEqual([]);
}
