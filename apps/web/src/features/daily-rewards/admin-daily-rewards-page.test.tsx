/**
 * Daily reward policies: each row is checked by the API's rules as the admin types (plain words,
 * on its field), nothing wrong is sent, the inputs carry the API's limits, a field the server
 * refuses is marked on that field, and a save refetches the policies.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));

const { default: AdminDailyRewardsPage } = await import('./admin-daily-rewards-page');

const policies = [
  { type: 0, enabled: true, amount: 50, earningsPercent: 0 },
  { type: 5, enabled: true, amount: 0, earningsPercent: 0.35 },
];

function fetchAnswering(save: (init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
    init?.method === 'PUT' || init?.method === 'POST' ? save(init) : Response.json({ policies }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const saves = (f: ReturnType<typeof fetchAnswering>) => f.mock.calls.filter(([, i]) => i?.method !== 'GET');
const reads = (f: ReturnType<typeof fetchAnswering>) => f.mock.calls.filter(([, i]) => i?.method === 'GET');

async function row(name: RegExp) {
  renderWithQueries(<AdminDailyRewardsPage />);
  return within(await screen.findByRole('form', { name }));
}

/** Clicks Save once the edit made it clickable (the form marks itself changed after the check). */
async function clickSave(row: ReturnType<typeof within>) {
  const button = row.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await act(async () => void fireEvent.click(button));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
});

describe('Daily reward policies', () => {
  it('names an emptied or wrong value on its field and sends nothing', async () => {
    const fetchMock = fetchAnswering(() => Response.json({}));
    const roobet = await row(/Type 5/);
    const percent = roobet.getByLabelText('Affiliate earnings (%)') as HTMLInputElement;
    expect([percent.min, percent.max]).toEqual(['0', '100']);
    fireEvent.change(percent, { target: { value: '' } });
    expect(await roobet.findByText('Enter a percentage (0 pays nothing).')).toBeTruthy();
    fireEvent.change(percent, { target: { value: '120' } });
    expect(await roobet.findByText('Enter a percentage of 0 to 100.')).toBeTruthy();
    expect(percent.getAttribute('aria-invalid')).toBe('true');
    await clickSave(roobet);
    expect(saves(fetchMock)).toHaveLength(0);
    fireEvent.change(percent, { target: { value: '0.5' } });
    await waitFor(() => expect(roobet.queryByText('Enter a percentage of 0 to 100.')).toBeNull());
  });

  it('sends the API body and refetches the policies', async () => {
    const fetchMock = fetchAnswering(() => Response.json({ ...policies[0], amount: 75 }));
    const clash = await row(/Type 0/);
    fireEvent.change(clash.getByLabelText(/^Amount/), { target: { value: '75' } });
    await clickSave(clash);
    await waitFor(() => expect(toastSuccess).toHaveBeenCalled());
    expect(JSON.parse(String(saves(fetchMock)[0]?.[1]?.body))).toEqual({
      enabled: true,
      amount: 75,
      earningsPercent: 0,
    });
    await waitFor(() => expect(reads(fetchMock).length).toBeGreaterThanOrEqual(2));
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = 'Enter the amount with at most 2 decimals, like 12.50.';
    fetchAnswering(() =>
      Response.json({ message: refusal, fields: [{ path: 'amount', message: refusal }] }, { status: 400 }),
    );
    const clash = await row(/Type 0/);
    fireEvent.change(clash.getByLabelText(/^Amount/), { target: { value: '60' } });
    await clickSave(clash);
    expect(await clash.findByText(refusal)).toBeTruthy();
    expect(clash.getByLabelText(/^Amount/).getAttribute('aria-invalid')).toBe('true');
  });
});
