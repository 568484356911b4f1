/**
 * The translator page: the web's keys and the server's side by side, a filter over keys and texts,
 * and "Missing only" keeping the keys some language lacks.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { default: TranslationsPage } = await import('./translations-page');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const server = {
  namespaces: {
    errors: {
      en: { notFound: 'Not found.', tooMany: 'Too many requests.' },
      es: { notFound: 'No encontrado.', tooMany: 'Demasiadas solicitudes.' },
      'pt-BR': { notFound: 'Não encontrado.' },
    },
  },
};

describe('translator page', () => {
  it("shows the web's and the server's texts, filters them, and keeps only the missing ones", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(server)),
    );
    renderWithQueries(<TranslationsPage />);
    expect(await screen.findByText('Demasiadas solicitudes.')).toBeTruthy();
    expect(screen.getAllByText('Tienda').length).toBeGreaterThan(0); // the web's store title in Spanish
    const rows = () => screen.getAllByTestId('translation-row');
    expect(rows().length).toBeGreaterThan(100);

    await act(
      async () =>
        void fireEvent.change(screen.getByLabelText('Filter keys and texts'), { target: { value: 'no encontrado.' } }),
    );
    expect(rows()).toHaveLength(1);
    expect(rows()[0]!.textContent).toContain('notFound');

    await act(
      async () => void fireEvent.change(screen.getByLabelText('Filter keys and texts'), { target: { value: '' } }),
    );
    await act(async () => void fireEvent.click(screen.getByLabelText('Missing only')));
    expect(rows()).toHaveLength(1);
    expect(rows()[0]!.textContent).toContain('tooMany');
    expect(rows()[0]!.textContent).toContain('Missing');
  });
});
