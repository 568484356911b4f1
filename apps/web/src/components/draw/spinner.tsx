/**
 * The draw wheel, shared by the giveaway and raffle pages and their OBS overlays: a strip of name cards that
 * slides for 3000 ms and stops with the winner's card under the marker. It starts when a new roll
 * arrives and calls `onLanded` once, so the admin page adds the winner to recent winners then.
 */
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../../components/ui/avatar';
import { buildReel, SPIN_MS, type Reel, type ReelName } from './reel';
import { readableKickColour } from './kick-colour';
import './spinner.css';

export const CARD_WIDTH = 160;

interface Props {
  /** The names the reel is built from (participants, or the overlay's sample). */
  names: readonly ReelName[];
  /** The roll to land on; a new rollId starts a new spin. */
  roll: { rollId: string; winner: ReelName } | null;
  onLanded?(rollId: string): void;
  /** Wider cards for the 1080p overlay. */
  large?: boolean;
}

export function Spinner({ names, roll, onLanded, large = false }: Props) {
  const width = large ? CARD_WIDTH * 1.5 : CARD_WIDTH;
  const viewport = useRef<HTMLDivElement>(null);
  const strip = useRef<HTMLDivElement>(null);
  const landedFor = useRef<string | null>(null);
  // The latest callback, without restarting the animation when the page re-renders with a new one.
  const onLandedRef = useRef(onLanded);
  useEffect(() => {
    onLandedRef.current = onLanded;
  });
  const rollId = roll?.rollId ?? null;
  const winner = roll?.winner ?? null;
  // A new reel per roll only: participants arriving mid-spin must not rebuild it.
  const [reelFor, setReelFor] = useState<{ rollId: string | null; reel: Reel | null }>({ rollId: null, reel: null });
  if (reelFor.rollId !== rollId) setReelFor({ rollId, reel: winner ? buildReel(names, winner) : null });
  const reel = reelFor.rollId === rollId ? reelFor.reel : null;

  useEffect(() => {
    const el = strip.current;
    if (!rollId || !reel || !el) return;
    const view = viewport.current?.clientWidth ?? 800;
    const target = reel.landing * width - view / 2 + width / 2;
    // The strip is driven directly (an animation, not React state): jump to the start, then slide.
    el.style.transition = 'none';
    el.style.transform = 'translateX(0px)';
    void el.offsetWidth;
    el.style.transition = `transform ${SPIN_MS}ms cubic-bezier(0.12, 0.8, 0.2, 1)`;
    el.style.transform = `translateX(${-target}px)`;
    const done = setTimeout(() => {
      if (landedFor.current === rollId) return;
      landedFor.current = rollId;
      onLandedRef.current?.(rollId);
    }, SPIN_MS);
    return () => clearTimeout(done);
  }, [reel, rollId, width]);

  const items = reel?.items ?? names.slice(0, 12);
  return (
    <div className={`kb-spinner${large ? ' kb-spinner-large' : ''}`} ref={viewport} data-testid="giveaway-spinner">
      <div className="kb-spinner-marker" aria-hidden="true" />
      <div className="kb-spinner-strip" ref={strip}>
        {items.map((n, i) => (
          <div
            key={i}
            className="kb-spinner-card"
            style={{ width }}
            data-landing={reel && i === reel.landing ? 'true' : undefined}
          >
            <Avatar url={n.avatarUrl} size={large ? 64 : 40} />
            <span style={{ color: readableKickColour(n.color) }}>{n.username}</span>
          </div>
        ))}
        {items.length === 0 && <div className="kb-spinner-empty">Waiting for participants…</div>}
      </div>
    </div>
  );
}
