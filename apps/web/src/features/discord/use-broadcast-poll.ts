/**
 * Follows a running broadcast: reads its progress every POLL_MS and hands each reading to
 * `onUpdate`, until one says it finished. A failed read is retried at the next tick.
 */
import { useEffect, useEffectEvent } from 'react';
import { isFinished, type BroadcastResult } from '@kickback/common/http/discord';
import { getBroadcast } from './api';

export const POLL_MS = 1000;

export function useBroadcastPoll(id: string | null, onUpdate: (result: BroadcastResult) => void): void {
  const update = useEffectEvent(onUpdate);

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    let timer = 0;
    const poll = async () => {
      try {
        const next = await getBroadcast(id, controller.signal);
        if (controller.signal.aborted) return;
        update(next);
        if (isFinished(next.status)) return;
      } catch {
        if (controller.signal.aborted) return;
      }
      timer = window.setTimeout(() => void poll(), POLL_MS);
    };
    timer = window.setTimeout(() => void poll(), POLL_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [id]);
}
