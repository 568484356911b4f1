/**
 * The community wager goal bars (docs/features/community-goal.md): the board shows its site's goal,
 * the home page every active one. Loaded with import() where first needed, so no page's first
 * load carries it; it draws nothing until a goal exists.
 *
 * The site's pages read the state every few seconds instead of joining the `/CommunityGoal` hub:
 * the hub client shares one socket.io connection per origin, whose handshake query is the first
 * hub's, so a query-less hub opened on these pages would make a game page opened next lose its
 * `gameid` ("Game not found"). The OBS overlay, a page of its own, follows the hub.
 */
import { communityGoalEndpoints, type CommunityGoalView } from '@kickback/common/http/community-goals';
import { formatAmount } from '../../lib/format';
import { useEndpointQuery } from '../../lib/query';
import './goal-bars.css';

const REFRESH_MS = 10_000;

export function GoalBar({ goal }: { goal: CommunityGoalView }) {
  const percent = Math.min(100, goal.target > 0 ? (goal.progress / goal.target) * 100 : 0);
  const reached = goal.reachedAt !== null;
  return (
    <article className={`kb-goal${reached ? ' kb-goal-reached' : ''}`} data-testid={`community-goal-${goal.siteSlug}`}>
      <div className="kb-goal-head">
        <h3 className="h6 mb-0 kb-goal-title">
          <span className="text-body-secondary">{goal.siteName} community goal · </span>
          {goal.title}
        </h3>
        <span className="kb-goal-figures" data-testid="community-goal-progress">
          {formatAmount(goal.progress)} / {formatAmount(goal.target)}
        </span>
      </div>
      <div
        className="kb-goal-track"
        role="progressbar"
        aria-label={`${goal.siteName} community goal`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.floor(percent)}
      >
        <div className="kb-goal-fill" style={{ width: `${percent}%` }} />
      </div>
      {goal.reward && (
        <p className="kb-goal-reward mb-0">
          {reached ? 'Reached! ' : 'At the goal: '}
          {goal.reward}
        </p>
      )}
    </article>
  );
}

/** Every active goal, or only `site`'s; nothing while none is set. */
export default function GoalBars({
  site,
  heading,
  className,
}: {
  site?: number;
  heading?: boolean;
  className?: string;
}) {
  const { data } = useEndpointQuery(
    communityGoalEndpoints.state,
    { silent: true },
    { refetchInterval: REFRESH_MS, staleTime: 0 },
  );
  const goals = (data?.goals ?? []).filter((g) => site === undefined || g.site === site);
  if (goals.length === 0) return null;
  return (
    <section className={`kb-goals${className ? ` ${className}` : ''}`} aria-label="Community goals">
      {heading && <h2 className="h4 mb-3">Community goals</h2>}
      {goals.map((g) => (
        <GoalBar key={g.site} goal={g} />
      ))}
    </section>
  );
}
