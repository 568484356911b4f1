/**
 * Challenge calls (docs/product.md#site-calls) as server state: the public list and the admin list are queries
 * keyed by their endpoints; create and update invalidate both, so every page showing challenges
 * refetches instead of patching by hand.
 */
import { challengeEndpoints } from '@kickback/common/http/challenges';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

/** The public page's list; its failure is silent (the page shows its empty state). */
export const usePublicChallenges = () => useEndpointQuery(challengeEndpoints.publicList, { silent: true });

export const useAllChallenges = () => useEndpointQuery(challengeEndpoints.all);

const changes = [challengeEndpoints.all, challengeEndpoints.publicList] as const;

export const useCreateChallenge = () => useEndpointMutation(challengeEndpoints.create, { invalidates: changes });

export const useUpdateChallenge = () => useEndpointMutation(challengeEndpoints.update, { invalidates: changes });
