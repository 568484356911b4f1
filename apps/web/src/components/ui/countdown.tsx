import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';

interface Parts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function partsUntil(end: number, now: number): Parts {
  const left = Math.max(0, Math.floor((end - now) / 1000));
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Counts down to `endDate`, ticking every second. Calls `onElapsed` once when it reaches zero.
 * Screen readers get one summary (the ticking boxes are hidden from them).
 */
export function Countdown({
  endDate,
  label,
  onElapsed,
}: {
  endDate: string;
  label?: string;
  /** Runs once the time is up; may return a cleanup. */
  onElapsed?: () => void | (() => void);
}) {
  const { t } = useTranslation();
  const shownLabel = label ?? t('countdown.endsIn');
  const end = Date.parse(endDate);
  const [now, setNow] = useState(() => Date.now());
  const elapsed = now >= end;

  useEffect(() => {
    if (elapsed) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [elapsed]);

  useEffect(() => {
    if (elapsed) return onElapsed?.();
  }, [elapsed, onElapsed]);

  const p = partsUntil(end, now);
  const summary = elapsed
    ? t('countdown.ended')
    : t('countdown.summary', {
        label: shownLabel,
        days: t('countdown.days', { count: p.days }),
        hours: t('countdown.hours', { count: p.hours }),
        minutes: t('countdown.minutes', { count: p.minutes }),
      });
  return (
    <div className="kb-countdown" role="timer" aria-label={summary} data-testid="countdown">
      <span className="kb-countdown-label">{elapsed ? t('countdown.ended') : shownLabel}</span>
      <div className="kb-countdown-boxes" aria-hidden>
        {(
          [
            [p.days, t('countdown.d')],
            [p.hours, t('countdown.h')],
            [p.minutes, t('countdown.m')],
            [p.seconds, t('countdown.s')],
          ] as const
        ).map(([value, unit]) => (
          <span className="kb-countdown-box" key={unit}>
            <span className="kb-countdown-value">{pad(value)}</span>
            <span className="kb-countdown-unit">{unit}</span>
          </span>
        ))}
      </div>
    </div>
  );
}
