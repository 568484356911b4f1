/**
 * Admin → Settings → Languages: the saved settings and the chat's aliases are shown, a change is
 * sent whole (site default, follow the browser, chat language, aliases on/off), and the aliases
 * listed follow the chat language picked.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const { toast } = await import('react-toastify');
const { default: LanguagesSection } = await import('./languages-section');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const settings = {
  siteDefault: 'en',
  followBrowser: true,
  chat: 'en',
  chatAliases: false,
  aliases: [
    { locale: 'es', alias: '!apostar', command: '!bet' },
    { locale: 'pt-BR', alias: '!apostar', command: '!bet' },
    { locale: 'pt-BR', alias: '!palpite', command: '!guess' },
  ],
};

describe('Admin → Settings → Languages', () => {
  it('sends the four settings and lists the aliases of the chat language picked', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as object;
        return Response.json({ message: 'Settings successfully updated.', settings: { ...settings, ...body } });
      }
      return Response.json(settings);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<LanguagesSection />);
    const save = await screen.findByRole('button', { name: 'Save languages' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('English commands only: this language has no aliases.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Site language'), { target: { value: 'es' } });
    fireEvent.click(screen.getByLabelText("A first visit follows the browser's language"));
    fireEvent.change(screen.getByLabelText('Chat bot language'), { target: { value: 'pt-BR' } });
    fireEvent.click(screen.getByLabelText("Chat commands in the chat's language too"));
    expect(screen.getByText('!palpite')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    await act(async () => void fireEvent.click(save));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings successfully updated.'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(put[0]).toBe('/api/admin/site/languages');
    expect(JSON.parse(String(put[1]!.body))).toEqual({
      siteDefault: 'es',
      followBrowser: false,
      chat: 'pt-BR',
      chatAliases: true,
    });
  });
});
