import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { BattleForm } = await import('./battle-form');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Admin → Battles form', () => {
  it(
    'refuses a minimum wager without a partner site, naming the field, and sends nothing',
    { timeout: 20_000 },
    async () => {
      const fetchMock = vi.fn();
      vi.stubGlobal('fetch', fetchMock);
      renderWithQueries(<BattleForm onCreated={vi.fn()} />);
      type('Title', 'Friday battle');
      type('Minimum wager this period', '500');
      type('Prize points', '-1');
      fireEvent.click(screen.getByRole('button', { name: 'Create battle' }));
      expect(await screen.findByText('Choose the partner site the minimum wager is counted on.')).toBeTruthy();
      expect(await screen.findByText('Prize points must be greater than 0.')).toBeTruthy();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('sends the rules and the prize as the server reads them', { timeout: 20_000 }, async () => {
    const fetchMock = vi.fn(async (..._args: unknown[]) =>
      Response.json({ id: '00000000-0000-4000-8000-000000000001' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onCreated = vi.fn();
    renderWithQueries(<BattleForm onCreated={onCreated} />);
    type('Title', 'Friday battle');
    type('Bracket size', '16');
    type('Verified link on', '6');
    type('Minimum wager this period', '250.50');
    type('Prize', 'item');
    type('Prize item', 'Signed hoodie');
    fireEvent.click(screen.getByRole('button', { name: 'Create battle' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000001'));
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      title: 'Friday battle',
      size: 16,
      siteId: 6,
      minWager: '250.50',
      subsOnly: false,
      registrationMinutes: 10,
      prize: { kind: 'item', item: 'Signed hoodie' },
    });
  });
});
