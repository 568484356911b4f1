import type { RewardUnit } from '@kickback/common/http/leaderboards';

const labels: Record<RewardUnit, string> = { USD: 'US dollars', gems: 'gems', coins: 'coins' };

/** The reward icon of a board: a gem (Clash.gg and its second board), a coin, or a dollar coin. */
export function CurrencyIcon({ unit, size = 16 }: { unit: RewardUnit; size?: number }) {
  const common = {
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    role: 'img',
    'aria-label': labels[unit],
    className: 'kb-currency-icon',
  } as const;
  if (unit === 'gems') {
    return (
      <svg {...common}>
        <path d="M7 3h10l5 6-10 12L2 9z" fill="#3ee08f" />
        <path d="M2 9h20L12 21z" fill="#22b870" />
        <path d="M7 3l2.5 6h5L17 3z" fill="#8dffc4" />
        <path d="M9.5 9L12 21l2.5-12z" fill="#5ff0a8" />
      </svg>
    );
  }
  if (unit === 'coins') {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="10" fill="#f5c542" />
        <circle cx="12" cy="12" r="7" fill="none" stroke="#c9951c" strokeWidth="1.6" />
        <path d="M12 7.5l1.4 2.9 3.1.4-2.3 2.1.6 3.1-2.8-1.5-2.8 1.5.6-3.1-2.3-2.1 3.1-.4z" fill="#c9951c" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="10" style={{ fill: 'var(--kb-accent)' }} />
      <path
        d="M12.9 6v1.3c1.5.2 2.6 1 2.9 2.4l-1.8.4c-.2-.8-.9-1.3-1.9-1.3-1.1 0-1.8.5-1.8 1.2 0 .6.4.9 1.7 1.2l1 .2c2 .5 2.9 1.3 2.9 2.8 0 1.5-1.2 2.6-3 2.8V18h-1.5v-1c-1.8-.2-3-1.1-3.3-2.7l1.9-.4c.2 1 1 1.5 2.2 1.5 1.2 0 1.9-.5 1.9-1.2 0-.6-.4-.9-1.6-1.2l-1.1-.3c-1.9-.4-2.8-1.3-2.8-2.7 0-1.4 1.1-2.4 2.8-2.7V6z"
        style={{ fill: 'var(--kb-accent-ink)' }}
      />
    </svg>
  );
}
