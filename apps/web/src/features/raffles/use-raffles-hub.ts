/**
 * The `/Raffles` hub for a page: tickets sold change (the page refetches) and a draw happens (the
 * wheel spins). The overlay's bundle carries no schemas, so the hub is referenced by name.
 */
import { useEffect } from 'react';
import type { RaffleChanged, RaffleDrawn, rafflesHub } from '@kickback/common/hubs/raffles';
import { HubConnection, hubRef } from '../../lib/hub';

const hub = hubRef<typeof rafflesHub>('/Raffles');
const RETRY_FOREVER_MS = 30_000;

export function useRafflesHub(handlers: {
  onChanged?(change: RaffleChanged): void;
  onDrawn?(drawn: RaffleDrawn): void;
  /** The last draw, read when the socket connects (a wheel opened after it shows it landed). */
  onLastDraw?(drawn: RaffleDrawn | null): void;
}): void {
  const { onChanged, onDrawn, onLastDraw } = handlers;
  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | null = null;
    const c = new HubConnection(
      hub,
      {},
      {
        onConnected() {
          if (onLastDraw) c.call('GetLastDraw').then(onLastDraw, () => undefined);
        },
        onClosed({ willRetry }) {
          if (!willRetry) retry = setTimeout(() => c.retry(), RETRY_FOREVER_MS);
        },
      },
    );
    if (onChanged) c.on('RaffleChanged', onChanged);
    if (onDrawn) c.on('RaffleDrawn', onDrawn);
    c.start();
    return () => {
      if (retry) clearTimeout(retry);
      c.stop();
    };
  }, [onChanged, onDrawn, onLastDraw]);
}
