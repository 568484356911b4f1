/**
 * Admin → Users calls as server state: the list is read page by page (usePaged on its endpoint);
 * every change to a user invalidates the list, so the table refetches instead of being patched by
 * hand.
 */
import { adminUserEndpoints } from '@kickback/common/http/admin-users';
import { useEndpointMutation } from '../../lib/query';

const changes = [adminUserEndpoints.list] as const;

export const useAdjustBalance = () => useEndpointMutation(adminUserEndpoints.adjustBalance, { invalidates: changes });
/** The role select and the excluded switch show what they were set to: a refused change refetches too. */
export const useSetRole = () =>
  useEndpointMutation(adminUserEndpoints.setRole, { invalidates: changes, alsoOnError: true });
export const useSetExcluded = () =>
  useEndpointMutation(adminUserEndpoints.setExcluded, { invalidates: changes, alsoOnError: true });
export const useLiftKickBan = () => useEndpointMutation(adminUserEndpoints.liftKickBan, { invalidates: changes });
