import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@kickback/common/http/store';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { PurchaseDialog, balanceAfter } = await import('./purchase-dialog');

const TRADE_URL = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC-12_x';
const skin: Product = {
  id: 7,
  name: 'AK-47 | Redline',
  price: 1500.5,
  image: null,
  category: 'Skins',
  stock: 3,
  delivery: 'steam_trade_url',
};

function open(product: Product, points = 2000, onBought = vi.fn(async () => undefined)) {
  const onClose = vi.fn();
  renderWithQueries(
    <MemoryRouter>
      <PurchaseDialog product={product} points={points} onClose={onClose} onBought={onBought} />
    </MemoryRouter>,
  );
  return { onClose, onBought };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('purchase dialog', () => {
  it('shows the item, the price and the exact balance after', () => {
    expect(balanceAfter(250.5, 0.7)).toBe(249.8);
    open(skin, 2000);
    const sums = screen.getByTestId('purchase-sums');
    expect(sums.textContent).toContain('1,500.50 pts');
    expect(sums.textContent).toContain('2,000.00 pts');
    expect(screen.getByTestId('balance-after').textContent).toBe('499.50 pts');
    expect(screen.getByText('AK-47 | Redline')).toBeTruthy();
  });

  it('asks for a valid Steam trade URL before sending anything, then sends it with the order', async () => {
    const fetchMock = vi.fn(async () => Response.json({ message: 'You bought it.', orderId: 1, code: null }));
    vi.stubGlobal('fetch', fetchMock);
    const { onClose, onBought } = open(skin);
    const input = screen.getByLabelText('Your Steam trade URL');
    fireEvent.click(screen.getByRole('button', { name: /^Buy for/ }));
    expect(await screen.findByText(/^Enter your Steam trade URL/)).toBeTruthy();
    fireEvent.change(input, { target: { value: 'https://steamcommunity.com/tradeoffer/new/?partner=1' } });
    fireEvent.click(screen.getByRole('button', { name: /^Buy for/ }));
    await waitFor(() => expect(screen.getByText(/^Enter your Steam trade URL/)).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: TRADE_URL } });
    fireEvent.click(screen.getByRole('button', { name: /^Buy for/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onBought).toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Order/OrderProduct');
    expect(JSON.parse(String(init.body))).toEqual({ productId: 7, deliveryDetail: TRADE_URL });
  });

  it('an instant-code product shows the code after buying', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'Ready.', orderId: 2, code: 'GIFT-1234-ABCD' })),
    );
    open({ ...skin, name: 'Gift card', delivery: 'code' });
    expect(screen.queryByLabelText('Your Steam trade URL')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Buy for/ }));
    expect((await screen.findByTestId('purchased-code')).textContent).toContain('GIFT-1234-ABCD');
  });
});
