/**
 * The site configuration as a query: its hand-spelled key is the endpoint's (so an admin change
 * that invalidates `siteEndpoints.config` reaches it), the site shows once it is read and shows
 * the new configuration after an invalidation, asked of the server past the browser's cached copy.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from '@kickback/common/http/site';
import { renderWithQueries } from '../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { SiteProvider, siteConfigKey, useSite } = await import('./site-context');
const { createQueryClient, endpointKey } = await import('../lib/query');
const { siteEndpoints } = await import('@kickback/common/http/site');

function Name() {
  return <p>{useSite().siteName}</p>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the site configuration', () => {
  it('is keyed by its endpoint', () => {
    expect(siteConfigKey).toEqual(endpointKey(siteEndpoints.config));
  });

  it('shows the site once read, and what an invalidation reads again', async () => {
    let name = 'Kickback';
    const config: SiteConfig = {
      siteName: name,
      streamerName: 'Vex',
      tagline: '',
      accentColor: '#6dff3a',
      logoUrl: '',
      kickChannel: 'vex',
      kickChannelUrl: 'https://kick.com/vex',
      contactEmail: 'hello@example.com',
      socials: [],
      quickLinks: [],
      termsUrl: '/terms',
      privacyUrl: '/privacy',
      challengeCategory: 'Roobet',
      menu: [],
      ageGate: { enabled: false, text: 'I am 18 or older.' },
      language: { default: 'en', followBrowser: true },
      devSignIn: false,
    };
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ ...config, siteName: name }));
    vi.stubGlobal('fetch', fetchMock);
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <SiteProvider>
          <Name />
        </SiteProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Kickback')).toBeTruthy();
    expect(document.title).toBe('Kickback');
    name = 'Kickback TV';
    await act(() => client.invalidateQueries({ queryKey: endpointKey(siteEndpoints.config) }));
    expect(await screen.findByText('Kickback TV')).toBeTruthy();
    // The first read may come from the browser's cache (max-age); the refetch after a change may not.
    expect(fetchMock.mock.calls[0]?.[1]?.cache).toBeUndefined();
    expect(fetchMock.mock.calls[1]?.[1]?.cache).toBe('no-cache');
  });

  it('says the site cannot be reached when the configuration cannot be read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'down' }, { status: 503 })),
    );
    renderWithQueries(
      <SiteProvider>
        <Name />
      </SiteProvider>,
    );
    expect(await screen.findByText('The site could not be reached.')).toBeTruthy();
  });

  it('asks a rate-limited visitor to wait, rather than calling the site unreachable', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'Too many requests. Please slow down.' }, { status: 429 })),
    );
    renderWithQueries(
      <SiteProvider>
        <Name />
      </SiteProvider>,
    );
    expect(await screen.findByText('Too many requests.')).toBeTruthy();
    expect(screen.getByText('Please wait a moment, then refresh.')).toBeTruthy();
    expect(screen.queryByText('The site could not be reached.')).toBeNull();
  });
});
