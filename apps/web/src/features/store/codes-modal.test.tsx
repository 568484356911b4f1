import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminProduct } from '@kickback/common/http/store';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn(), warning: vi.fn() } }));

const { CodesModal } = await import('./codes-modal');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const product: AdminProduct = {
  id: 7,
  name: 'Gift card',
  price: 10,
  image: null,
  category: 'Gift cards',
  stock: 1,
  delivery: 'code',
  active: true,
  sold: 1,
  codes: { available: 1, sold: 1 },
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('Admin → Products → Codes', () => {
  it('shows a withdrawn duplicate as such, counted apart from the codes for sale', { timeout: 20_000 }, async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          available: 1,
          sold: 1,
          withdrawn: 1,
          codes: [
            { id: 3, masked: '••••2222', sold: false, withdrawn: true, uploadedAt: '2026-01-01T00:00:00.000Z' },
            { id: 2, masked: '••••1111', sold: false, withdrawn: false, uploadedAt: '2026-01-01T00:00:00.000Z' },
            { id: 1, masked: '••••0000', sold: true, withdrawn: false, uploadedAt: '2026-01-01T00:00:00.000Z' },
          ],
        }),
      ),
    );
    renderWithQueries(<CodesModal product={product} onClose={vi.fn()} />);
    expect(await screen.findByText('1 withdrawn (duplicates)')).toBeTruthy();
    const items = (await screen.findAllByRole('listitem')).map((li) => li.textContent);
    expect(items).toEqual(['••••2222 withdrawn: duplicate', '••••1111 available', '••••0000 sold']);
  });
});
