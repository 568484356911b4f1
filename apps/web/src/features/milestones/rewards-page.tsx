/**
 * Milestone rewards (`/rewards`, user dropdown and each leaderboard board;
 * docs/features/milestone-rewards.md): per partner site with a ladder, its tiers, the viewer's
 * wager this cycle with a progress bar to the next tier, and a claim of what the tiers reached owe
 * beyond what the cycle paid. Automatic ladders pay on their own; the page says so.
 */
import Button from 'react-bootstrap/Button';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { milestoneEndpoints, type PublicLadder } from '@kickback/common/http/milestones';
import { formatAmount } from '../../lib/format';
import { useProfileModal } from '../../shared/profile-modal-context';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import './milestones.css';

const reward = (t: PublicLadder['tiers'][number]) =>
  t.rewardKind === 'points'
    ? `${formatAmount(t.rewardAmount)} points`
    : `$${formatAmount(t.rewardAmount)} cash or site tip`;

function Progress({ ladder }: { ladder: PublicLadder }) {
  const me = ladder.me;
  if (!me) return null;
  const next = ladder.tiers[me.reached + 1];
  const from = me.reached >= 0 ? ladder.tiers[me.reached]!.threshold : 0;
  const pct = next ? Math.max(0, Math.min(100, ((me.wagered - from) * 100) / (next.threshold - from))) : 100;
  return (
    <div className="kb-ms-progress">
      <div className="d-flex justify-content-between small mb-1">
        <span>
          Wagered this {ladder.cycle === 'all_time' ? 'all-time' : 'cycle'}: <strong>{formatAmount(me.wagered)}</strong>
        </span>
        <span className="text-body-secondary">
          {next ? `${formatAmount(next.threshold - me.wagered)} to ${next.name}` : 'Top tier reached'}
        </span>
      </div>
      <div
        className="progress kb-progress"
        role="progressbar"
        aria-label={`Progress to ${next?.name ?? 'the top tier'}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
      >
        <div className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

function LadderCard({ ladder }: { ladder: PublicLadder }) {
  const { openProfile } = useProfileModal();
  const claim = useEndpointMutation(milestoneEndpoints.claim, {
    invalidates: [milestoneEndpoints.ladders],
    alsoOnError: true,
  });
  const me = ladder.me;
  const claimable = me ? me.claimablePoints + me.claimableCash > 0 : false;
  const onClaim = async () => {
    try {
      const result = await claim.mutateAsync({ params: { site: ladder.site } });
      toast.success(result.message);
    } catch {
      // The refusal's words are shown by the API layer's toast.
    }
  };
  return (
    <section className="kb-card p-3 mb-4" aria-labelledby={`kb-ms-${ladder.site}`}>
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
        <h2 className="h4 mb-0" id={`kb-ms-${ladder.site}`}>
          {ladder.siteName}
        </h2>
        <span className="text-body-secondary small">
          {ladder.cycle === 'all_time'
            ? 'All-time ladder'
            : `Resets with the leaderboard${ladder.cycleEndsAt ? ` on ${new Date(ladder.cycleEndsAt).toUTCString().slice(0, 22)} UTC` : ''}`}
          {ladder.automatic ? ' · paid automatically' : ''}
        </span>
      </div>
      {me === null ? (
        <p className="mb-2">Sign in and verify your {ladder.siteName} account to climb this ladder.</p>
      ) : !me.linked ? (
        <p className="mb-2">
          Verify your {ladder.siteName} account in{' '}
          <Button variant="link" className="p-0 align-baseline" onClick={openProfile}>
            your profile
          </Button>{' '}
          to climb this ladder.
        </p>
      ) : (
        <Progress ladder={ladder} />
      )}
      <ol className="kb-ms-tiers list-unstyled mb-3">
        {ladder.tiers.map((t, i) => {
          const reached = me !== null && i <= me.reached;
          const paid = me !== null && i <= me.paid && i <= me.reached;
          return (
            <li key={t.name} className={`kb-ms-tier${reached ? ' kb-ms-reached' : ''}`} data-testid="milestone-tier">
              <span className="kb-ms-name">{t.name}</span>
              <span className="kb-ms-threshold">{formatAmount(t.threshold)} wagered</span>
              <span className="kb-ms-reward">{reward(t)}</span>
              <span className="kb-ms-state">{paid ? 'Paid' : reached ? 'Reached' : ''}</span>
            </li>
          );
        })}
      </ol>
      {me?.linked && (
        <div className="d-flex flex-wrap align-items-center gap-3">
          <Button onClick={() => void onClaim()} disabled={claim.isPending}>
            Claim
          </Button>
          <span className="small">
            {claimable
              ? `You may claim ${[
                  me.claimablePoints > 0 ? `${formatAmount(me.claimablePoints)} points` : null,
                  me.claimableCash > 0 ? `$${formatAmount(me.claimableCash)}` : null,
                ]
                  .filter(Boolean)
                  .join(' and ')} now.`
              : me.refusal}
          </span>
        </div>
      )}
    </section>
  );
}

export default function RewardsPage() {
  const [params] = useSearchParams();
  const { data } = useEndpointQuery(milestoneEndpoints.ladders);
  const wanted = Number(params.get('site'));
  const ladders = data
    ? [...data.ladders].sort((a, b) => (a.site === wanted ? -1 : b.site === wanted ? 1 : a.site - b.site))
    : [];
  return (
    <div className="container py-4" style={{ maxWidth: 860 }}>
      <h1 className="h3">Milestone rewards</h1>
      <p className="text-body-secondary">
        Wager under the code on a partner site and climb its ladder: each tier you reach adds its reward, and a claim
        pays what your tiers are worth beyond what this cycle already paid you — rewards do not stack twice.
      </p>
      {data && ladders.length === 0 && <p>No milestone ladders are running right now.</p>}
      {ladders.map((l) => (
        <LadderCard key={l.site} ladder={l} />
      ))}
    </div>
  );
}
