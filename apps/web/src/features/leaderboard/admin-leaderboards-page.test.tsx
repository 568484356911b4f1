/**
 * Admin → Leaderboards settings, checked by the API's own rules: emptied and wrong fields are each
 * named at once, on their fields, in plain words, and nothing is sent; the inputs carry the API's
 * limits; a field the server refuses is marked on that field; a save refetches the sites.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminSite } from '@kickback/common/http/leaderboards';
import { MemoryRouter } from 'react-router';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));

const { default: AdminLeaderboardsPage } = await import('./admin-leaderboards-page');

const roobet: AdminSite = {
  id: 6,
  slug: 'roobet',
  name: 'Roobet',
  codeCount: 1,
  linkField: 'roobetName',
  settings: {
    shown: true,
    periodStart: '2026-11-23T00:00:00.000Z',
    periodDays: 7,
    pointsPerUnit: 0.5,
    rewardUnit: 'USD',
    rewards: [{ reward: 2000, rewardBonus: 500 }],
    codes: ['VEX'],
    referralUrl: null,
    excludedNames: ['streamer'],
  },
  provider: 'simulator',
  status: { lastSuccessAt: null, lastErrorAt: null, lastError: null, nextPollAt: null, players: 0 },
  current: null,
  lastClosed: null,
};

function fetchAnswering(put: (init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) =>
    init?.method === 'PUT' ? put(init) : Response.json({ sites: [roobet] }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const puts = (fetchMock: ReturnType<typeof fetchAnswering>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
/** The page's reads of the sites (the community-goal sections read their goals apart). */
const reads = (fetchMock: ReturnType<typeof fetchAnswering>) =>
  fetchMock.mock.calls.filter(([url, init]) => init?.method === 'GET' && !String(url).includes('community-goals'));

async function open() {
  renderWithQueries(
    <MemoryRouter>
      <AdminLeaderboardsPage />
    </MemoryRouter>,
  );
  return within(await screen.findByRole('article', { name: '6. Roobet' }));
}

const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save Roobet' })));
const set = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
});

describe('Admin leaderboard settings', () => {
  it('names every emptied or wrong field at once, on its field, and sends nothing', async () => {
    const fetchMock = fetchAnswering(() => Response.json({ message: 'Settings successfully updated.' }));
    const card = await open();
    set(card.getByLabelText('Length'), '');
    set(card.getByLabelText('Points per 1 unit wagered'), '-1');
    set(card.getByLabelText('Reward for rank 1'), '');
    set(card.getByLabelText('Referral code'), 'has space');
    set(card.getByLabelText('Referral link'), 'javascript:alert(1)');
    await save();
    expect(await card.findByText('Enter the period length in days.')).toBeTruthy();
    expect(card.getByText('Enter a points rate of 0 or more.')).toBeTruthy();
    expect(card.getByText('Enter a reward, or remove the rank.')).toBeTruthy();
    expect(card.getByText('Use only letters, digits, dot, dash or underscore in a code.')).toBeTruthy();
    expect(card.getByText('Enter a referral link starting with http:// or https://.')).toBeTruthy();
    for (const label of [
      'Length',
      'Points per 1 unit wagered',
      'Reward for rank 1',
      'Referral code',
      'Referral link',
    ]) {
      expect(card.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    }
    expect(document.getElementById('lb-6-days-error')?.textContent).toBe('Enter the period length in days.');
    expect(puts(fetchMock)).toHaveLength(0);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('checks a field as it is typed and clears its message once it is right', async () => {
    fetchAnswering(() => Response.json({ message: 'ok' }));
    const card = await open();
    set(card.getByLabelText('Length'), '40');
    expect(await card.findByText('Enter a period length of 1 to 31 days.')).toBeTruthy();
    set(card.getByLabelText('Bonus for rank 1'), '1.005');
    expect(await card.findByText('Enter a bonus with at most 2 decimals, like 12.50.')).toBeTruthy();
    set(card.getByLabelText('Length'), '14');
    await waitFor(() => expect(card.queryByText('Enter a period length of 1 to 31 days.')).toBeNull());
  });

  it("carries the API's limits on the inputs and counts the excluded names", async () => {
    fetchAnswering(() => Response.json({ message: 'ok' }));
    const card = await open();
    const length = card.getByLabelText('Length') as HTMLInputElement;
    expect([length.min, length.max]).toEqual(['1', '31']);
    expect((card.getByLabelText('Referral code') as HTMLInputElement).maxLength).toBe(32);
    expect((card.getByLabelText('Referral link') as HTMLInputElement).maxLength).toBe(300);
    expect(card.getByText('1 / 200 names')).toBeTruthy();
    set(card.getByLabelText('Excluded partner names'), 'a\n\nb\nc');
    expect(await card.findByText('3 / 200 names')).toBeTruthy();
  });

  it('sends the API body, then refetches the sites', async () => {
    const fetchMock = fetchAnswering(() => Response.json({ message: 'Settings successfully updated.' }));
    const card = await open();
    set(card.getByLabelText('Bonus for rank 1'), '');
    set(card.getByLabelText('Excluded partner names'), 'streamer\n bot \n');
    await save();
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Settings successfully updated.'));
    const [url, init] = puts(fetchMock)[0]!;
    expect(url).toBe('/api/admin/leaderboards/6');
    expect(JSON.parse(String(init?.body))).toEqual({
      ...roobet.settings,
      periodStart: '2026-11-23T00:00:00Z',
      rewards: [{ reward: 2000, rewardBonus: null }],
      excludedNames: ['streamer', 'bot'],
    });
    await waitFor(() => expect(reads(fetchMock)).toHaveLength(2));
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = 'Enter a reward with at most 2 decimals, like 12.50.';
    fetchAnswering(() =>
      Response.json({ message: refusal, fields: [{ path: 'rewards.0.reward', message: refusal }] }, { status: 400 }),
    );
    const card = await open();
    await save();
    expect(await card.findByText(refusal)).toBeTruthy();
    expect(card.getByLabelText('Reward for rank 1').getAttribute('aria-invalid')).toBe('true');
    // The API wrapper's toast library loads with the first toast (src/lib/toast.ts).
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith(refusal));
  });
});

describe('Admin leaderboards: one board at a time', () => {
  const howl: AdminSite = { ...roobet, id: 4, slug: 'howl', name: 'Howl' };
  const show = (entry: string) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ sites: [howl, roobet] })),
    );
    renderWithQueries(
      <MemoryRouter initialEntries={[entry]}>
        <AdminLeaderboardsPage />
      </MemoryRouter>,
    );
  };

  it('shows the first board; a tab shows another and hides the first', async () => {
    show('/admin/leaderboards');
    expect(await screen.findByRole('article', { name: '4. Howl' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: '6. Roobet' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Howl' }).getAttribute('aria-selected')).toBe('true');
    await act(async () => void fireEvent.click(screen.getByRole('tab', { name: 'Roobet' })));
    expect(await screen.findByRole('article', { name: '6. Roobet' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: '4. Howl' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Roobet' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens the board named in the address', async () => {
    show('/admin/leaderboards?board=roobet');
    expect(await screen.findByRole('article', { name: '6. Roobet' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: '4. Howl' })).toBeNull();
  });
});
