/**
 * Admin → Slot calls → Rules: the blacklist is typed one name a line and sent as a list; a bad
 * amount is named on its field as it is typed and nothing is sent.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SlotCallRulesView } from '@kickback/common/hubs/slot-calls';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { RulesForm } = await import('./rules-form');

const rules: SlotCallRulesView = {
  maxPerViewer: 1,
  cooldownSeconds: 0,
  cost: 0,
  linkedOnly: false,
  subsOnly: false,
  maxQueue: 50,
  unknownSlots: 'accept',
  blacklist: ['Mental'],
  payoutMultiplier: 100,
  payoutPoints: 0,
};
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save rules' })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('slot call rules', () => {
  it('shows the blacklist one a line and sends it as a list', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ message: 'nope' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<RulesForm rules={rules} onSaved={vi.fn()} />);
    const blacklist = field('Blacklist (slots or providers, one a line)');
    expect(blacklist.value).toBe('Mental');
    fireEvent.change(blacklist, { target: { value: 'Mental\n\n  Hacksaw Gaming  \n' } });
    await save();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({ blacklist: ['Mental', 'Hacksaw Gaming'], maxPerViewer: 1 });
  });

  it('names a negative cost on its field and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<RulesForm rules={rules} onSaved={vi.fn()} />);
    fireEvent.change(field('Call cost (points, 0 = free)'), { target: { value: '-5' } });
    await save();
    expect(await screen.findByText('The call cost cannot be negative.')).toBeTruthy();
    expect(field('Call cost (points, 0 = free)').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
