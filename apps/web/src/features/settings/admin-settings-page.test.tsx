/**
 * Admin → Settings: a bad field is named on it at once and nothing is sent; a good change is sent
 * with the shared schema's values and the server's toast is shown.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { toast } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const site = {
  siteName: 'Kickback',
  streamerName: 'Vex',
  tagline: 'Live gamba.',
  accentColor: '#53fc18',
  logoUrl: '/brand/logo.svg',
  kickChannel: 'vex',
  kickChannelUrl: 'https://kick.com/vex',
  contactEmail: 'hello@kickback.example',
  socials: [{ label: 'Discord', url: 'https://discord.gg/kickback', icon: 'discord' }],
  quickLinks: [{ label: 'Store', url: '/store' }],
  termsUrl: '/terms',
  privacyUrl: '/privacy',
  challengeCategory: 'Roobet',
  menu: [],
  ageGate: { enabled: true, text: 'Adults only.' },
  language: { default: 'en', followBrowser: true },
  devSignIn: true,
};
vi.mock('../../shared/site-context', () => ({ useSite: () => site }));

const { default: AdminSettingsPage } = await import('./admin-settings-page');

function open() {
  renderWithQueries(
    <MemoryRouter>
      <AdminSettingsPage />
    </MemoryRouter>,
  );
}
const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const save = () => act(async () => void fireEvent.click(saveButton()));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Admin → Settings form', () => {
  it('names a javascript: quick link at once and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    open();
    const url = screen.getByLabelText('Quick link 1 URL');
    fireEvent.change(url, { target: { value: 'javascript:alert(1)' } });
    expect(await screen.findByText(/quick link URL must be a site path/)).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    await save();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the change (with an added social) and shows the server’s toast', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      return Response.json({
        message: 'Settings successfully updated.',
        site: { ...site, ...body, kickChannelUrl: `https://kick.com/${body.kickChannel}` },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    open();
    fireEvent.change(screen.getByLabelText('Site name'), { target: { value: 'Nightshift' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add social link' }));
    fireEvent.change(screen.getByLabelText('Social 2 label'), { target: { value: 'X' } });
    fireEvent.change(screen.getByLabelText('Social 2 URL'), { target: { value: 'https://x.com/nightshift' } });
    fireEvent.change(screen.getByLabelText('Social 2 icon'), { target: { value: 'x' } });
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await save();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings successfully updated.'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toContain('/api/admin/site/branding');
    expect(JSON.parse(String(init.body))).toMatchObject({
      siteName: 'Nightshift',
      socials: [site.socials[0], { label: 'X', url: 'https://x.com/nightshift', icon: 'x' }],
    });
  });

  it('uploads a logo as multipart, puts its path in the Logo URL field and the preview, and saves it', async () => {
    const uploaded = `/api/images/${'a'.repeat(64)}.png`;
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url.endsWith('/api/admin/images')) {
        return Response.json({
          message: 'Image uploaded.',
          url: uploaded,
          contentType: 'image/png',
          width: 64,
          height: 64,
          bytes: 120,
        });
      }
      const body = JSON.parse(String(init.body));
      return Response.json({ message: 'Settings successfully updated.', site: { ...site, ...body } });
    });
    vi.stubGlobal('fetch', fetchMock);
    open();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    await act(async () => void fireEvent.change(screen.getByLabelText('Upload a logo'), { target: { files: [file] } }));
    await waitFor(() => expect((screen.getByLabelText('Logo URL') as HTMLInputElement).value).toBe(uploaded));
    const [, upload] = fetchMock.mock.calls[0]!;
    expect(upload.method).toBe('POST');
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('file')).toBeInstanceOf(File);
    // The browser sets the multipart boundary: no JSON content type is forced on the form.
    expect(upload.headers).not.toHaveProperty('Content-Type');
    expect(screen.getByAltText('Logo preview').getAttribute('src')).toBe(uploaded);
    expect(toast.success).toHaveBeenCalledWith('Image uploaded.');
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await save();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1].body))).toMatchObject({ logoUrl: uploaded });
  });

  it('says a refused upload under the control and keeps the Logo URL', async () => {
    const message = 'The file is not a PNG, JPEG, WebP or GIF image (judged by its content, not its name).';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message, fields: [{ path: 'file', message }] }, { status: 400 })),
    );
    open();
    const file = new File(['<svg/>'], 'logo.png', { type: 'image/png' });
    const input = screen.getByLabelText('Upload a logo');
    await act(async () => void fireEvent.change(input, { target: { files: [file] } }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText('Logo URL') as HTMLInputElement).value).toBe('/brand/logo.svg');
  });
});
