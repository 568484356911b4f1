/**
 * The verification queue's changes (Admin → Verification). Each refetches the queue afterwards,
 * also when refused (another admin may have decided it first: the page was behind).
 */
import { partnerVerificationEndpoints } from '@kickback/common/http/partner-links';
import { useEndpointMutation } from '../../lib/query';

const refreshes = { invalidates: [partnerVerificationEndpoints.queue], alsoOnError: true } as const;

/** Approve or reject a claim, award or dismiss a dispute: one mutation per decision. */
export function useDecisions() {
  return {
    approve: useEndpointMutation(partnerVerificationEndpoints.approve, refreshes),
    reject: useEndpointMutation(partnerVerificationEndpoints.reject, refreshes),
    award: useEndpointMutation(partnerVerificationEndpoints.award, refreshes),
    dismiss: useEndpointMutation(partnerVerificationEndpoints.dismiss, refreshes),
  };
}

export const useApproveClaims = () => useEndpointMutation(partnerVerificationEndpoints.approveMany, refreshes);

export const useApproveExisting = () => useEndpointMutation(partnerVerificationEndpoints.approveExisting, refreshes);
