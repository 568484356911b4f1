/**
 * The reward case drawn in SVG (no image files to fetch): closed, or open with a glow and coins.
 * Eight colours, picked by day index modulo 8 (docs/product.md#site-constants-and-limits).
 */
import { caseColourOf } from '@kickback/common/rewards/calendar';

export const caseColours = [
  { name: 'emerald', body: '#2fbf71', dark: '#1b7a47', light: '#7df0b0' },
  { name: 'sapphire', body: '#3d7cf2', dark: '#234a9c', light: '#9cc0ff' },
  { name: 'amethyst', body: '#9a5cf0', dark: '#5d2fa3', light: '#d0b1ff' },
  { name: 'rose', body: '#ef5aa0', dark: '#9c2a62', light: '#ffb1d6' },
  { name: 'ruby', body: '#e5484d', dark: '#952327', light: '#ff9ea1' },
  { name: 'amber', body: '#f08c2e', dark: '#a3551a', light: '#ffc88f' },
  { name: 'gold', body: '#e9c13b', dark: '#9c7a12', light: '#fff0a3' },
  { name: 'teal', body: '#22b8c4', dark: '#137780', light: '#8ceef5' },
] as const;

export function caseColourFor(index: number) {
  return caseColours[caseColourOf(index)] ?? caseColours[0];
}

export function CaseArt({ index, open }: { index: number; open: boolean }) {
  const c = caseColourFor(index);
  const id = `case-${index}-${open ? 'o' : 'c'}`;
  return (
    <svg viewBox="0 0 120 100" className="kb-case-art" aria-hidden focusable="false">
      <defs>
        <linearGradient id={`${id}-body`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={c.body} />
          <stop offset="1" stopColor={c.dark} />
        </linearGradient>
        <radialGradient id={`${id}-glow`} cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stopColor={c.light} stopOpacity="0.95" />
          <stop offset="1" stopColor={c.light} stopOpacity="0" />
        </radialGradient>
      </defs>
      {open && <ellipse cx="60" cy="44" rx="54" ry="34" fill={`url(#${id}-glow)`} />}
      {/* body */}
      <rect x="16" y="46" width="88" height="44" rx="7" fill={`url(#${id}-body)`} stroke={c.dark} strokeWidth="2.5" />
      <rect x="16" y="58" width="88" height="6" fill={c.dark} opacity="0.55" />
      <rect x="30" y="46" width="7" height="44" fill={c.light} opacity="0.35" />
      <rect x="83" y="46" width="7" height="44" fill={c.light} opacity="0.35" />
      {open ? (
        <>
          {/* lid tipped back, coins inside */}
          <path
            d="M20 44 L28 14 H92 L100 44 Z"
            fill={c.dark}
            stroke={c.dark}
            strokeWidth="2.5"
            strokeLinejoin="round"
          />
          <path d="M28 40 L33 20 H87 L92 40 Z" fill={c.light} opacity="0.35" />
          <ellipse cx="60" cy="47" rx="40" ry="7" fill="#1b1f26" opacity="0.55" />
          <circle cx="46" cy="42" r="8" fill="#f5c542" stroke="#c9951c" strokeWidth="2" />
          <circle cx="62" cy="38" r="9" fill="#ffd84a" stroke="#c9951c" strokeWidth="2" />
          <circle cx="77" cy="43" r="7.5" fill="#f5c542" stroke="#c9951c" strokeWidth="2" />
          <path d="M60 6 v8 M44 10 l4 6 M76 10 l-4 6" stroke={c.light} strokeWidth="3" strokeLinecap="round" />
        </>
      ) : (
        <>
          {/* closed lid and latch */}
          <rect x="12" y="30" width="96" height="20" rx="7" fill={c.body} stroke={c.dark} strokeWidth="2.5" />
          <rect x="12" y="30" width="96" height="7" rx="3.5" fill={c.light} opacity="0.45" />
          <rect x="30" y="30" width="7" height="20" fill={c.light} opacity="0.35" />
          <rect x="83" y="30" width="7" height="20" fill={c.light} opacity="0.35" />
          <rect x="51" y="42" width="18" height="18" rx="4" fill="#f5c542" stroke="#9c7a12" strokeWidth="2" />
          <circle cx="60" cy="50" r="3" fill="#9c7a12" />
        </>
      )}
    </svg>
  );
}
