/**
 * Challenge cards: active (image, title, highlighted description, $ price, CLAIM, category badge)
 * and ended (dimmed, the winner with a medal and the end date-time).
 */
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { FaMedal, FaRegClock } from 'react-icons/fa6';
import type { Challenge } from '@kickback/common/http/challenges';
import { formatAmount } from '../../lib/format';
import { ChallengeImage } from './challenge-image';
import { Highlighted } from './highlighted';

const endFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** What both cards share: image with the category badge, title and highlighted description. */
function ChallengeCardFrame({
  challenge,
  ended = false,
  children,
}: {
  challenge: Challenge;
  ended?: boolean;
  children: ReactNode;
}) {
  return (
    <article
      className={ended ? 'kb-challenge kb-challenge-ended' : 'kb-challenge'}
      aria-labelledby={`challenge-${challenge.id}`}
    >
      <div className="kb-challenge-media">
        <ChallengeImage url={challenge.imageUrl} />
        <Badge bg="" className="kb-challenge-badge">
          {challenge.category}
        </Badge>
        {ended && <span className="kb-challenge-ended-tag">ENDED</span>}
      </div>
      <div className="kb-challenge-body">
        <h3 className="kb-challenge-title" id={`challenge-${challenge.id}`}>
          {challenge.title}
        </h3>
        {challenge.description && (
          <p className="kb-challenge-text">
            <Highlighted text={challenge.description} />
          </p>
        )}
        {children}
      </div>
    </article>
  );
}

export function ActiveChallengeCard({ challenge, onClaim }: { challenge: Challenge; onClaim(c: Challenge): void }) {
  return (
    <ChallengeCardFrame challenge={challenge}>
      <div className="kb-challenge-foot">
        <span className="kb-challenge-price" aria-label={`Prize $${formatAmount(challenge.price)}`}>
          ${formatAmount(challenge.price)}
        </span>
        <Button onClick={() => onClaim(challenge)} aria-label={`Claim ${challenge.title}`}>
          CLAIM
        </Button>
      </div>
    </ChallengeCardFrame>
  );
}

export function EndedChallengeCard({ challenge }: { challenge: Challenge }) {
  return (
    <ChallengeCardFrame challenge={challenge} ended>
      <div className="kb-challenge-winner">
        <FaMedal className="kb-medal" aria-hidden />
        <span>
          <span className="visually-hidden">Winner: </span>
          {challenge.winnerUserName ?? 'No winner'}
        </span>
        <span className="kb-challenge-price ms-auto">${formatAmount(challenge.price)}</span>
      </div>
      {challenge.endedAt && (
        <div className="kb-challenge-ended-at">
          <FaRegClock aria-hidden /> Ended{' '}
          <time dateTime={challenge.endedAt}>{endFormat.format(new Date(challenge.endedAt))}</time>
        </div>
      )}
    </ChallengeCardFrame>
  );
}
