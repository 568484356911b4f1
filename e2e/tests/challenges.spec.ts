import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, screenshot, signIn } from './helpers';
import { discPng } from './png';

const titlesIn = (page: Page, testId: string) => page.getByTestId(testId).getByRole('heading', { level: 3 });

test('a visitor sees active and ended challenges, filters, sorts, reads the rules and opens CLAIM', async ({
  page,
}) => {
  await page.goto('/');
  await page.locator('#kb-nav').getByRole('link', { name: 'Challenges', exact: true }).click();
  await expect(page).toHaveURL(/\/Challenges$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('CHALLENGES');
  await expect(page.getByRole('heading', { name: /ACTIVE/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /ENDED/ })).toBeVisible();

  // The category list is the one fixed category; other categories and cancelled ones never show.
  const category = page.getByLabel('Category');
  await expect(category.getByRole('option')).toHaveText(['Roobet']);
  await expect(page.getByText('Clash battle streak')).toHaveCount(0);
  await expect(page.getByText('Old stream challenge')).toHaveCount(0);

  // Demo data: four active, three ended. Newest first by default.
  const active = titlesIn(page, 'active-challenges');
  await expect(active).toHaveCount(4);
  await expect(active.first()).toHaveText('Gates of Olympus 1,000x');
  await expect(page.getByLabel('Sort')).toHaveValue('1');
  // Highlighted description parts, $ price, CLAIM and the badge.
  const first = page.getByTestId('active-challenges').getByRole('article').first();
  await expect(first.locator('mark').first()).toHaveText('1,000x');
  await expect(first.getByText('$500.00')).toBeVisible();
  await expect(first.getByText('Roobet', { exact: true })).toBeVisible();

  await page.getByLabel('Sort').selectOption('2');
  await expect(active.first()).toHaveText('Mines Streak');
  await page.getByLabel('Sort').selectOption('3');
  await expect(active).toHaveText([
    'Gates of Olympus 1,000x',
    'Wanted Dead or a Wild',
    'Sweet Bonanza Max Tumble',
    'Mines Streak',
  ]);
  await page.getByLabel('Sort').selectOption('4');
  await expect(active.first()).toHaveText('Mines Streak');

  // Ended: dimmed cards with the winner, a medal and the end date-time.
  const ended = page.getByTestId('ended-challenges').getByRole('article');
  await expect(ended).toHaveCount(3);
  await expect(ended.first()).toHaveClass(/kb-challenge-ended/);
  await expect(ended.filter({ hasText: 'Crash Moonshot' })).toContainText('LuckyLuke');
  await expect(ended.first().locator('time')).toHaveText(/\d{4}/);

  // Rules: collapsed until opened.
  const rules = page.getByRole('button', { name: 'Rules' });
  await expect(rules).toHaveAttribute('aria-expanded', 'false');
  await rules.click();
  await expect(page.getByText(/a prize must be claimed within 3 days/i)).toBeVisible();
  await expect(page.getByText(/bet size of 1\.40 is needed for a 1\.36 rate/)).toBeVisible();
  await page.getByLabel('Sort').selectOption('1');
  await screenshot(page, 'challenges');
  await expectAccessible(page);

  // CLAIM: a modal titled with the challenge, pointing at a Discord ticket; OK closes it.
  await first.getByRole('button', { name: /Claim/ }).click();
  const modal = page.getByRole('dialog', { name: 'Gates of Olympus 1,000x' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('create a ticket');
  await screenshot(page, 'challenges-claim-modal');
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toBeHidden();

  // On a phone the cards stack.
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'challenges-phone');
});

test('an admin creates a challenge, is told what is wrong, then completes it with a winner', async ({ page }) => {
  await signIn(page, DEMO_ADMIN, { demo: true });
  await page.locator('#kb-admin-menu').click();
  await page.getByRole('link', { name: 'Challenge Management' }).click();
  await expect(page).toHaveURL(/\/ChallengeManagement$/);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Title',
    'Category',
    'Price',
    'Status',
    'Start Date',
    'End Date',
    'Winner',
    'Edit',
  ]);
  await screenshot(page, 'challenge-management');
  await expectAccessible(page);

  // Create with everything empty: every missing field is named at once, on its field.
  await page.getByRole('button', { name: 'Create New Challenge' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Challenge' });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText('Enter a title.')).toBeVisible();
  await expect(create.getByText('Enter a price.')).toBeVisible();
  await expect(create.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, 'challenge-create-errors');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'challenge-create-errors-phone');
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Price must be numeric: said on the field as it is typed, and nothing is created.
  await create.getByLabel('Title').fill('E2E {Sugar Rush} 1,000x');
  await expect(create.getByText('Enter a title.')).toBeHidden();
  await create.getByLabel('Price ($)').fill('lots');
  await create.getByLabel('Description').fill('Land {1,000x} on {Sugar Rush}.');
  // An uploaded picture: its path fills Image URL and the preview shows it.
  await create.getByLabel('Upload an image').setInputFiles({
    name: 'sugar-rush.png',
    mimeType: 'image/png',
    buffer: discPng(80, [255, 105, 180]),
  });
  await expect(page.getByText('Image uploaded.')).toBeVisible();
  await expect(create.getByLabel('Image URL')).toHaveValue(/^\/api\/images\/[0-9a-f]{64}\.png$/);
  await screenshot(page, 'challenge-create-modal');
  await expect(create.getByText('Enter the price as a number, like 250 or 12.50.')).toBeVisible();
  await expect(create.getByText('30 / 2000 characters')).toBeVisible();
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText('Enter the price as a number, like 250 or 12.50.')).toBeVisible();
  await create.getByLabel('Price ($)').fill('321.50');
  await expect(create.getByText('Enter the price as a number, like 250 or 12.50.')).toBeHidden();
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Challenge successfully created.')).toBeVisible();
  await expect(create).toBeHidden();
  const row = table.getByRole('row', { name: /E2E \{Sugar Rush\} 1,000x/ });
  await expect(row).toContainText('$321.50');
  await expect(row).toContainText('Active');

  // It is on the public page under ACTIVE.
  await page.goto('/Challenges');
  await expect(page.getByTestId('active-challenges')).toContainText('E2E {Sugar Rush} 1,000x');

  // Update: completed, with a winner picked from the user search.
  await page.goto('/ChallengeManagement');
  await row.getByRole('button', { name: /Edit/ }).click();
  const edit = page.getByRole('dialog', { name: 'Update Challenge' });
  await expect(edit.getByLabel('Id')).toHaveAttribute('readonly', '');
  await edit.getByLabel('Status').selectOption('1');
  await edit.getByLabel('Winner').fill('CrateQ');
  await page.getByRole('option', { name: /CrateQueen/ }).click();
  await screenshot(page, 'challenge-update-modal');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Challenge successfully updated.')).toBeVisible();
  await page.getByText('Challenge successfully updated.').click();
  await expect(row).toContainText('Completed');
  await expect(row).toContainText('CrateQueen');

  // Editing again with the winner left empty keeps CrateQueen.
  await row.getByRole('button', { name: /Edit/ }).click();
  await edit.getByLabel('Title').fill('E2E Sugar Rush 1,000x (verified)');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Challenge successfully updated.').first()).toBeVisible();
  const renamed = table.getByRole('row', { name: /E2E Sugar Rush 1,000x \(verified\)/ });
  await expect(renamed).toContainText('CrateQueen');

  // Public page: now under ENDED, with the winner.
  await page.goto('/Challenges');
  const endedCard = page.getByTestId('ended-challenges').getByRole('article', { name: /verified/ });
  await expect(endedCard).toContainText('CrateQueen');

  // The prize is in the Fulfilment queue for the winner, once.
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: 'Fulfilment', exact: true }).click();
  await page.getByLabel('Filter by kind').selectOption('challenge');
  const prize = page.getByRole('row').filter({ hasText: 'Challenge prize: E2E Sugar Rush 1,000x' });
  await expect(prize).toHaveCount(1);
  await expect(prize).toContainText('CrateQueen');
  await expect(prize).toContainText('$321.50');
  await screenshot(page, 'challenge-prize-fulfilment');
});
