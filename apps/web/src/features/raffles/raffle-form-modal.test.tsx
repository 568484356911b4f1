import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { RaffleFormModal } = await import('./raffle-form-modal');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Admin → Raffles form', () => {
  it('refuses a bad price naming the field, and sends nothing', { timeout: 20_000 }, async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<RaffleFormModal editing="new" onClose={vi.fn()} />);
    type('Title', 'Knife raffle');
    type('Prize 1 points', '500');
    type('Ticket price (points)', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket price must be greater than 0')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the prizes in order (points, then an item) and the times typed as UTC', { timeout: 20_000 }, async () => {
    const fetchMock = vi.fn(async (..._args: unknown[]) => Response.json({ message: 'Raffle created.' }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<RaffleFormModal editing="new" onClose={vi.fn()} />);
    type('Title', 'Knife raffle');
    type('Prize 1 points', '500');
    fireEvent.click(screen.getByRole('button', { name: 'Add prize' }));
    fireEvent.change(screen.getByLabelText('Prize 2 kind'), { target: { value: 'item' } });
    type('Prize 2 item', 'Signed jersey');
    type('Ticket price (points)', '10');
    type('Maximum tickets per user', '3');
    type('Opens (UTC)', '2026-12-01T18:00');
    type('Closes (UTC)', '2026-12-02T18:30');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled(), { timeout: 5000 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain('/api/admin/raffles');
    expect(JSON.parse(init.body as string)).toMatchObject({
      title: 'Knife raffle',
      prizes: [
        { kind: 'points', points: 500 },
        { kind: 'item', item: 'Signed jersey' },
      ],
      ticketPrice: 10,
      maxTicketsPerUser: 3,
      opensAt: '2026-12-01T18:00:00.000Z',
      closesAt: '2026-12-02T18:30:00.000Z',
    });
  });
});
