/** The verification queue's calls (Admin → Verification). */
import { messageBody } from '@kickback/common/http/errors';
import { bulkResult } from '@kickback/common/http/partner-links';
import { api } from '../../lib/api';

export const decideClaim = (id: number, decision: 'approve' | 'reject', reason: string) =>
  api(`/api/admin/partner-links/${id}/${decision}`, { method: 'POST', body: { reason }, schema: messageBody });

export const approveClaims = (ids: number[]) =>
  api('/api/admin/partner-links/approve', { method: 'POST', body: { ids }, schema: bulkResult });

export const approveExisting = () =>
  api('/api/admin/partner-links/approve-existing', { method: 'POST', schema: bulkResult });

export const decideDispute = (id: number, decision: 'award' | 'dismiss', reason: string) =>
  api(`/api/admin/partner-disputes/${id}/${decision}`, { method: 'POST', body: { reason }, schema: messageBody });
