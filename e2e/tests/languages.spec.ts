/**
 * Languages on the site (docs/features/languages.md#on-the-site): a visitor switches to Español (or
 * Português) in the header; the home page, Daily Rewards and the store then show no English text of
 * the web catalogue, `<html lang>` follows, and a reload keeps the choice (the `kb_lang` cookie). A
 * signed-in viewer's choice from the user menu is kept on the profile: a new browser signed in as
 * them speaks it too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { newPerson, preAcceptAgeGate, screenshot, signIn } from './helpers';

type Catalogue = { [key: string]: string | Catalogue };
const catalogue = (locale: string): Catalogue =>
  JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, `../../apps/web/src/i18n/locales/${locale}.json`), 'utf8'),
  ) as Catalogue;
const texts = (c: Catalogue): string[] => Object.values(c).flatMap((v) => (typeof v === 'string' ? [v] : texts(v)));

/**
 * The English phrases that must not be left on a page in `locale`: each English text's words between
 * its placeholders (4 letters or more), unless the language writes the same phrase too ("Slot calls",
 * "Bonus hunt").
 */
function englishPhrases(locale: string): string[] {
  const own = texts(catalogue(locale));
  const phrases = texts(catalogue('en'))
    .flatMap((text) => text.split(/\{\{[^}]*\}\}/))
    .map((p) =>
      p
        .trim()
        .replace(/[→·:.,!]+$/u, '')
        .trim(),
    )
    .filter((p) => /\p{L}{4}/u.test(p));
  return [...new Set(phrases)].filter((p) => !own.some((text) => text.includes(p)));
}

/** The page's visible text, without what the site's admin wrote (the footer's quick links, the tagline). */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const el of Array.from(
      body.querySelectorAll('.kb-footer nav:nth-of-type(2), .kb-hero .lead, .kb-footer p.small'),
    ))
      el.remove();
    return body.innerText;
  });
}

async function expectNoEnglish(page: Page, locale: string) {
  const text = await visibleText(page);
  const left = englishPhrases(locale).filter((p) =>
    new RegExp(`(?<!\\p{L})${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u').test(text),
  );
  expect(left, `English left on ${page.url()}`).toEqual([]);
}

const journeys = [
  {
    locale: 'es',
    name: 'Español',
    home: 'Qué puedes hacer aquí',
    store: 'Tienda',
    daily: 'Recompensas diarias de Roobet',
  },
  {
    locale: 'pt-BR',
    name: 'Português (Brasil)',
    home: 'O que você pode fazer aqui',
    store: 'Loja',
    daily: 'Recompensas diárias da Roobet',
  },
] as const;

for (const j of journeys) {
  test(`a visitor switches to ${j.name}: home, daily rewards and the store speak it, and a reload keeps it`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'en-US' });
    await preAcceptAgeGate(context);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'What you can do here' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).selectOption(j.locale);
    await expect(page.getByRole('heading', { name: j.home })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', j.locale);
    expect((await context.cookies()).find((c) => c.name === 'kb_lang')?.value).toBe(j.locale);
    await expectNoEnglish(page, j.locale);

    await page.reload();
    await expect(page.getByRole('heading', { name: j.home })).toBeVisible();
    await expectNoEnglish(page, j.locale);

    await page.goto('/DailyRewards');
    await expect(page.getByText(j.daily, { exact: true })).toBeVisible();
    await expectNoEnglish(page, j.locale);
    await page.goto('/dailyrewardroobet');
    await expect(page.getByRole('list', { name: /\d{4}/ })).toBeVisible();
    await expectNoEnglish(page, j.locale);

    await page.goto('/store');
    await expect(page.getByRole('heading', { name: j.store, exact: true })).toBeVisible();
    await expect(page.locator('.kb-product').first()).toBeVisible();
    await expectNoEnglish(page, j.locale);
    await screenshot(page, `languages-${j.locale}-store`);
    await context.close();
  });
}

test("a signed-in viewer's language is kept on the profile: another browser signed in as them speaks it", async ({
  browser,
}) => {
  const person = newPerson('Lingua');
  const first = await browser.newContext({ locale: 'en-US' });
  await preAcceptAgeGate(first);
  const page = await first.newPage();
  await page.goto('/');
  await signIn(page, person);
  await page.locator('#kb-user-menu').click();
  await screenshot(page, 'languages-user-menu');
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { name: 'Qué puedes hacer aquí' })).toBeVisible();
  await first.close();

  // A new browser without the cookie: English until sign-in says who they are, then their language.
  const second = await browser.newContext({ locale: 'en-US' });
  await preAcceptAgeGate(second);
  const again = await second.newPage();
  await again.goto('/');
  await signIn(again, person);
  await expect(again.getByRole('heading', { name: 'Qué puedes hacer aquí' })).toBeVisible();
  await expect(again.locator('html')).toHaveAttribute('lang', 'es');
  await second.close();
});
