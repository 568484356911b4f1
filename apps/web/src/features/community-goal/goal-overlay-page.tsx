/**
 * `/overlay/goal`: an OBS browser source (1920×1080, sized in units of the viewport's height),
 * public and read-only on a transparent page: each active community wager goal with its bar, or
 * only one site's with `?site=<slug>` (docs/features/community-goal.md#the-obs-overlay).
 */
import { useEffect } from 'react';
import { formatAmount } from '../../lib/format';
import { useCommunityGoals } from './use-community-goals';
import './goal-overlay.css';

export default function GoalOverlayPage() {
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);
  const { state } = useCommunityGoals();
  const only = new URLSearchParams(window.location.search).get('site')?.toLowerCase() ?? null;
  const goals = (state?.goals ?? []).filter((g) => only === null || g.siteSlug === only);
  return (
    <main className="kbg-stage" data-testid="goal-overlay" aria-label="Community goal overlay">
      <h1 className="kb-visually-hidden">Community goal</h1>
      <div className="kbg-list">
        {goals.map((g) => {
          const percent = Math.min(100, g.target > 0 ? (g.progress / g.target) * 100 : 0);
          return (
            <section className="kbg-panel" key={g.site} data-testid={`goal-overlay-${g.siteSlug}`}>
              <p className="kbg-site">{g.siteName} community goal</p>
              <p className="kbg-title">{g.title}</p>
              <div className="kbg-track">
                <div className="kbg-fill" style={{ width: `${percent}%` }} />
              </div>
              <p className="kbg-figures">
                <span data-testid="goal-overlay-progress">
                  {formatAmount(g.progress)} / {formatAmount(g.target)}
                </span>
                <span>{Math.floor(percent)}%</span>
              </p>
              {g.reward && (
                <p className="kbg-reward">
                  {g.reachedAt ? 'Reached! ' : ''}
                  {g.reward}
                </p>
              )}
            </section>
          );
        })}
      </div>
    </main>
  );
}
