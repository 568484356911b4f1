/** The verification queue's calls (Admin → Verification). */
import { verificationEndpoints } from '@kickback/common/http/partner-links';
import { api } from '../../lib/api';

export const decideClaim = (id: number, decision: 'approve' | 'reject', reason: string) =>
  api(verificationEndpoints[decision], { params: { id }, body: { reason } });

export const approveClaims = (ids: number[]) => api(verificationEndpoints.approveMany, { body: { ids } });

export const approveExisting = () => api(verificationEndpoints.approveExisting);

export const decideDispute = (id: number, decision: 'award' | 'dismiss', reason: string) =>
  api(verificationEndpoints[decision], { params: { id }, body: { reason } });
