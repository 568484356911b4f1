/**
 * The 18+ gate's admin form: an emptied text is named on its field at once and not sent, the text
 * carries the server's limit with a counter, and a field the server refuses is marked on it.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('../../shared/site-context', () => ({
  useSite: () => ({ ageGate: { enabled: true, text: 'I am 18 or older.' } }),
}));

const { default: AdminAgeGatePage } = await import('./admin-age-gate-page');

function open() {
  renderWithQueries(<AdminAgeGatePage />);
}
const text = () => screen.getByLabelText('Text visitors confirm') as HTMLTextAreaElement;
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('18+ gate admin form', () => {
  it('names an emptied text at once, counts it, and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open();
    expect(text().maxLength).toBe(1000);
    expect(screen.getByText('17 / 1000 characters')).toBeTruthy();
    fireEvent.change(text(), { target: { value: '   ' } });
    expect(await screen.findByText('Enter the text visitors confirm.')).toBeTruthy();
    expect(text().getAttribute('aria-invalid')).toBe('true');
    await save();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("puts the server's refusal on the text", async () => {
    const refusal = 'Keep the text to 1000 characters or fewer.';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ message: refusal, fields: [{ path: 'text', message: refusal }] }, { status: 400 }),
      ),
    );
    open();
    fireEvent.change(text(), { target: { value: 'Only adults, please.' } });
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await save();
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(text().getAttribute('aria-invalid')).toBe('true');
  });
});
