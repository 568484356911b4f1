/**
 * /overlay/giveaway: the OBS browser source (1920×1080, transparent, public, read-only). It shows
 * the participant count, spins to the same winner at the same moment as the admin page (both
 * start on the same roll event and spin 3000 ms), then the winner card. It reconnects by itself:
 * the contract's schedule first, then every 30 s for as long as the source is open.
 */
import { useEffect, useState } from 'react';
import type { giveawayOverlayHub, OverlayRoll } from '@kickback/common/hubs/giveaway-overlay';
import { Avatar } from '../../components/ui/avatar';
import { HubConnection, hubRef } from '../../lib/hub';
import { Spinner } from '../../components/draw/spinner';
import '../../components/draw/overlay-stage.css';
import { readableKickColour } from '../../components/draw/kick-colour';
import { useTranslation } from '../../i18n/i18n';

const RETRY_FOREVER_MS = 30_000;
/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof giveawayOverlayHub>('/KickGiveAwayOverlay');

export default function GiveawayOverlayPage() {
  const [count, setCount] = useState<number | null>(null);
  const [roll, setRoll] = useState<OverlayRoll | null>(null);
  const [landed, setLanded] = useState<string | null>(null);
  /** The roll the wheel spins to: only one announced while this page is open. */
  const [spun, setSpun] = useState<OverlayRoll | null>(null);

  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);

  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | null = null;
    const c = new HubConnection(
      hub,
      {},
      {
        onConnected() {
          c.call('GetOverlayState').then(
            (s) => {
              setCount(s.participantCount);
              // A roll from before this page opened is shown landed, not spun again.
              setRoll((current) => current ?? s.lastRoll);
              if (s.lastRoll) setLanded((l) => l ?? s.lastRoll!.rollId);
            },
            () => undefined,
          );
        },
        onClosed({ willRetry }) {
          if (!willRetry) retry = setTimeout(() => c.retry(), RETRY_FOREVER_MS);
        },
      },
    );
    c.on('ReceiveParticipantCount', setCount);
    c.on('ReceiveRoll', (r) => {
      setLanded(null);
      setRoll(r);
      setSpun(r);
    });
    c.start();
    return () => {
      if (retry) clearTimeout(retry);
      c.stop();
    };
  }, []);

  const { t } = useTranslation();
  const winner = roll?.winners[0] ?? null;
  const spunWinner = spun?.winners[0] ?? null;
  const showWinner = roll !== null && winner !== null && landed === roll.rollId;
  // One line that never contradicts the count: the spinner only appears once a roll starts here.
  const phase = showWinner ? null : spun ? t('overlay.rolling') : t('overlay.waiting');
  return (
    <main className="kb-overlay" data-testid="giveaway-overlay" aria-label={t('overlay.giveaway')}>
      <h1 className="kb-visually-hidden">{t('giveaway.title')}</h1>
      <div className="kb-overlay-count">
        <span data-testid="overlay-count">{t('giveaway.participants', { count: count ?? 0 })}</span>
        {phase && (
          <>
            {' · '}
            <span className="kb-overlay-phase" data-testid="overlay-phase">
              {phase}
            </span>
          </>
        )}
      </div>
      {spun && spunWinner && (
        <Spinner large names={spun.reel} roll={{ rollId: spun.rollId, winner: spunWinner }} onLanded={setLanded} />
      )}
      {showWinner && (
        <div className="kb-overlay-winner" data-testid="overlay-winner">
          <Avatar url={winner.avatarUrl} size={96} />
          <span style={{ color: readableKickColour(winner.color) }}>
            {roll.winners.map((w) => w.username).join(', ')}
          </span>
        </div>
      )}
    </main>
  );
}
