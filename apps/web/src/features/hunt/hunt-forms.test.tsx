/**
 * The hunt runner's forms: an empty form names every missing field at once and sends nothing,
 * amounts are checked as the runner types, and a field the server refuses is marked on that field
 * (keeping provider and bet and returning to the slot after an add is in e2e/tests/hunt.spec.ts).
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { StartHuntForm, AddBonusForm } = await import('./hunt-forms');

const hunt = { id: '00000000-0000-4000-8000-000000000001' } as HuntView;
function open(node: React.ReactNode) {
  renderWithQueries(node);
}
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Start a hunt', () => {
  it('names the missing name and start cost at once and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open(<StartHuntForm onStarted={vi.fn()} />);
    expect(field('Name').maxLength).toBe(80);
    await click('Start');
    expect(await screen.findByText('The name is required.')).toBeTruthy();
    expect(screen.getByText('Enter the start cost as a number.')).toBeTruthy();
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(field('Start cost ($)').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks as the runner types', async () => {
    open(<StartHuntForm onStarted={vi.fn()} />);
    fireEvent.change(field('Start cost ($)'), { target: { value: '10.555' } });
    expect(await screen.findByText('The start cost has at most 2 decimals.')).toBeTruthy();
    fireEvent.change(field('Start cost ($)'), { target: { value: '10.55' } });
    await waitFor(() => expect(screen.queryByText('The start cost has at most 2 decimals.')).toBeNull());
  });
});

describe('Add a bonus', () => {
  it('names the missing slot and bet at once and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open(<AddBonusForm hunt={hunt} onChanged={vi.fn()} />);
    await click('Add');
    expect(await screen.findByText('The slot is required.')).toBeTruthy();
    expect(screen.getByText('Enter the bet as a number.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = 'The bet is at most 100,000,000.';
    const fetchMock = vi.fn(async () =>
      Response.json({ message: refusal, fields: [{ path: 'bet', message: refusal }] }, { status: 400 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    open(<AddBonusForm hunt={hunt} onChanged={vi.fn()} />);
    fireEvent.change(field('Slot'), { target: { value: 'Gates of Olympus' } });
    fireEvent.change(field('Bet ($)'), { target: { value: '2.5' } });
    await click('Add');
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(field('Bet ($)').getAttribute('aria-invalid')).toBe('true');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ slot: 'Gates of Olympus', provider: '', bet: 2.5, cost: 0 });
  });
});
