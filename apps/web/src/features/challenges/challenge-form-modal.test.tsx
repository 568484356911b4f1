/**
 * The Create Challenge form, checked by the server's own schema: everything empty names every
 * missing field at once; a field is checked as it is typed; a too-long description is refused with
 * its message and counted; a field the server refuses is marked on that field.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));

const { ChallengeFormModal } = await import('./challenge-form-modal');

function open(onSaved = vi.fn()) {
  renderWithQueries(<ChallengeFormModal target="new" defaultCategory="Roobet" onClose={vi.fn()} onSaved={onSaved} />);
  return onSaved;
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const create = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Create' })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
});

describe('Create Challenge', () => {
  it('with everything empty names every missing field at once, on its field, and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open();
    await create();
    expect(await screen.findByText('Enter a title.')).toBeTruthy();
    expect(screen.getByText('Enter a price.')).toBeTruthy();
    expect(field('Title').getAttribute('aria-invalid')).toBe('true');
    expect(field('Price ($)').getAttribute('aria-invalid')).toBe('true');
    expect(field('Title').getAttribute('aria-describedby')).toContain('new-title-error');
    expect(document.getElementById('new-price-error')?.textContent).toBe('Enter a price.');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('checks a field as it is typed, in plain words', async () => {
    open();
    type('Price ($)', 'ten');
    expect(await screen.findByText('Enter the price as a number, like 250 or 12.50.')).toBeTruthy();
    type('Price ($)', '-3');
    expect(await screen.findByText('Enter a price of 0 or more.')).toBeTruthy();
    type('Price ($)', '12.50');
    await waitFor(() => expect(screen.queryByText('Enter a price of 0 or more.')).toBeNull());
    expect(field('Price ($)').getAttribute('aria-invalid')).toBe('false');
  });

  it('counts the description and refuses one over 2000 characters with its message', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open();
    expect(screen.getByText('0 / 2000 characters')).toBeTruthy();
    expect(field('Description').maxLength).toBe(2000);
    expect(field('Title').maxLength).toBe(120);
    type('Title', 'Hit 100x');
    type('Price ($)', '50');
    type('Description', 'd'.repeat(5000));
    expect(await screen.findByText('Keep the description to 2000 characters or fewer.')).toBeTruthy();
    expect(screen.getByText('5000 / 2000 characters')).toBeTruthy();
    await create();
    expect(fetchMock).not.toHaveBeenCalled();
    type('Description', 'd'.repeat(2000));
    await waitFor(() => expect(screen.queryByText('Keep the description to 2000 characters or fewer.')).toBeNull());
    expect(screen.getByText('2000 / 2000 characters')).toBeTruthy();
  });

  it("puts the server's field error on its field", async () => {
    const fetchMock = vi.fn(async () =>
      Response.json(
        {
          message: 'Enter an image address starting with http(s):// or a path on this site starting with /.',
          fields: [
            {
              path: 'imageUrl',
              message: 'Enter an image address starting with http(s):// or a path on this site starting with /.',
            },
            { path: 'category', message: 'That category is closed.' },
          ],
        },
        { status: 400 },
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onSaved = open();
    type('Title', 'Hit 100x');
    type('Price ($)', '50');
    await create();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('That category is closed.')).toBeTruthy();
    expect(field('Category').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('new-imageUrl-error')?.textContent).toBe(
      'Enter an image address starting with http(s):// or a path on this site starting with /.',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('sends the checked values and says so', async () => {
    const saved = {
      id: 7,
      title: 'Hit 100x',
      price: 50,
      description: '',
      category: 'Roobet',
      imageUrl: '',
      status: 0,
      createdAt: new Date().toISOString(),
      endedAt: null,
      winnerUserId: null,
      winnerUserName: null,
    };
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => Response.json(saved));
    vi.stubGlobal('fetch', fetchMock);
    const onSaved = open();
    type('Title', '  Hit 100x ');
    type('Price ($)', '50');
    await create();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      title: 'Hit 100x',
      price: 50,
      description: '',
      category: 'Roobet',
      imageUrl: '',
    });
    expect(toastSuccess).toHaveBeenCalledWith('Challenge successfully created.');
  });
});
