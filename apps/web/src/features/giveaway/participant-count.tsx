import { countOf } from '@kickback/common/plural';

/** The giveaway page's badge: how many have entered, "1 participant" or "N participants". */
export function ParticipantCount({ count }: { count: number }) {
  return (
    <span className="badge text-bg-secondary" data-testid="participant-count">
      {countOf(count, 'participant')}
    </span>
  );
}
