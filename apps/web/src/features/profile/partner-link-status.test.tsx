/**
 * The partner links under the profile: a new proof code and a contest refetch the links list
 * (invalidation), so the new code and the open dispute show without a reload.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MyPartnerLinks } from '@kickback/common/http/partner-links';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { PartnerLinkStatus } = await import('./partner-link-status');
const { useMyPartnerLinks } = await import('../../lib/partner-links');

function Links() {
  return <PartnerLinkStatus data={useMyPartnerLinks().data} />;
}

function serve(decided: MyPartnerLinks['disputes'] = []) {
  let code = 'KB-OLD1';
  const disputes: MyPartnerLinks['disputes'] = [...decided];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/User/partner-links/code') {
      code = 'KB-NEW2';
      return Response.json({ code });
    }
    if (url === '/api/User/partner-links/dispute') {
      const body = JSON.parse(String(init?.body)) as { field: 'ClashId'; value: string };
      disputes.push({
        id: 1,
        field: body.field,
        label: 'Clash ID',
        value: body.value,
        status: 'open',
        createdAt: '2026-11-27T08:00:00.000Z',
        reason: null,
      });
      return Response.json({ message: 'Sent to the admins.' });
    }
    const links: MyPartnerLinks = {
      links: [
        {
          id: 7,
          field: 'ClashId',
          label: 'Clash ID',
          value: '4242',
          state: 'claimed',
          proof: 'code',
          proofCode: code,
          heldPoints: 0,
          claimedAt: '2026-11-27T08:00:00.000Z',
          decidedAt: null,
          reason: null,
        },
      ],
      disputes,
      pointsDebt: 0,
    };
    return Response.json(links);
  });
  vi.stubGlobal('fetch', fetchMock);
  renderWithQueries(<Links />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('partner link status', () => {
  it('shows a new proof code once asked for, by refetching the links', async () => {
    serve();
    expect(await screen.findByText('KB-OLD1')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'New code' })));
    expect(await screen.findByText('KB-NEW2')).toBeTruthy();
  });

  it('shows a contest as with the admins, by refetching the links', async () => {
    serve();
    await screen.findByText('KB-OLD1');
    fireEvent.click(screen.getByRole('button', { name: 'Contest it' }));
    fireEvent.change(screen.getByLabelText('Your id there'), { target: { value: '9999' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Contest this id' })));
    expect((await screen.findByText(/is with the admins/)).textContent).toContain('9999');
  });

  it('shows how the admins decided each contest: upheld, or dismissed with the reason', async () => {
    const decided = (id: number, value: string, status: 'awarded' | 'dismissed', reason: string | null) => ({
      id,
      field: 'ClashId' as const,
      label: 'Clash ID',
      value,
      status,
      createdAt: '2026-11-26T08:00:00.000Z',
      reason,
    });
    serve([decided(3, '777', 'awarded', null), decided(2, '555', 'dismissed', 'No proof')]);
    const outcomes = await screen.findAllByTestId('dispute-outcome');
    expect(outcomes.map((o) => o.textContent)).toEqual([
      'Your claim on Clash ID 777 was upheld: the id is now linked to your account.',
      'Your claim on Clash ID 555 was dismissed. Reason: No proof',
    ]);
  });
});
