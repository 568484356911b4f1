/**
 * The verification queue's changes (Admin → Verification). Each refetches the queue afterwards,
 * also when refused (another admin may have decided it first: the page was behind).
 */
import { verificationEndpoints } from '@kickback/common/http/partner-links';
import { useEndpointMutation } from '../../lib/query';

const refreshes = { invalidates: [verificationEndpoints.queue], alsoOnError: true } as const;

/** Approve or reject a claim, award or dismiss a dispute: one mutation per decision. */
export function useDecisions() {
  return {
    approve: useEndpointMutation(verificationEndpoints.approve, refreshes),
    reject: useEndpointMutation(verificationEndpoints.reject, refreshes),
    award: useEndpointMutation(verificationEndpoints.award, refreshes),
    dismiss: useEndpointMutation(verificationEndpoints.dismiss, refreshes),
  };
}

export const useApproveClaims = () => useEndpointMutation(verificationEndpoints.approveMany, refreshes);

export const useApproveExisting = () => useEndpointMutation(verificationEndpoints.approveExisting, refreshes);
