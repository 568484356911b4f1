import { useEffect, useState } from 'react';

/** Whole seconds until `endsAt` (ISO, server time), corrected by the server clock offset. */
export function secondsLeft(endsAt: string | null, clockOffset: number, now = Date.now()): number | null {
  if (!endsAt) return null;
  return Math.max(0, Math.ceil((Date.parse(endsAt) - (now + clockOffset)) / 1000));
}

/** The countdown of the current phase, re-rendered four times a second. */
export function useSecondsLeft(endsAt: string | null, clockOffset: number): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!endsAt) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);
  return secondsLeft(endsAt, clockOffset, now);
}
