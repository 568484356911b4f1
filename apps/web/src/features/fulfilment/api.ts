/**
 * Fulfilment calls as server state: the queue is read page by page (usePaged on its endpoint);
 * delivering or rejecting an item invalidates every page of the queue, so the table refetches
 * instead of being reloaded by hand.
 */
import { fulfilmentEndpoints } from '@kickback/common/http/fulfilment';
import { useEndpointMutation } from '../../lib/query';

const changes = [fulfilmentEndpoints.queue] as const;

export const useDeliverItem = () => useEndpointMutation(fulfilmentEndpoints.deliver, { invalidates: changes });
export const useRejectItem = () => useEndpointMutation(fulfilmentEndpoints.reject, { invalidates: changes });
