/**
 * A live game's HTTP calls as server state (docs/architecture.md#the-live-game-kit): its recent
 * games list, and create and cancel invalidating it. The game itself is live state, followed on its
 * hub.
 */
import type { EndpointSpec } from '@kickback/common/http/endpoint';
import { useEndpointMutation, useEndpointQuery } from './query';

export function liveGameApi<R extends EndpointSpec, C extends EndpointSpec, X extends EndpointSpec>(endpoints: {
  recent: R;
  create: C;
  cancel: X;
}) {
  return {
    useRecent: () => useEndpointQuery(endpoints.recent),
    useCreate: () => useEndpointMutation(endpoints.create, { invalidates: [endpoints.recent] }),
    useCancel: () => useEndpointMutation(endpoints.cancel, { invalidates: [endpoints.recent] }),
  };
}
