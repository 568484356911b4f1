/**
 * Follows a running broadcast: its polled query (useBroadcast) hands each new reading to
 * `onUpdate`, until one says it finished.
 */
import { useEffect, useEffectEvent } from 'react';
import type { BroadcastResult } from '@kickback/common/http/discord';
import { useBroadcast } from './api';

export function useBroadcastPoll(id: string | null, onUpdate: (result: BroadcastResult) => void): void {
  const update = useEffectEvent(onUpdate);
  const { data, dataUpdatedAt } = useBroadcast(id);

  useEffect(() => {
    if (id !== null && data?.id === id) update(data);
  }, [id, data, dataUpdatedAt]);
}
