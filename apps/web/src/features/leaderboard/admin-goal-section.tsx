/**
 * Admin → Leaderboards, a site's "Community goal" section (docs/features/community-goal.md#the-goal):
 * the title, the target in the board's currency, the reward announced on reaching it and whether
 * it shows; with this period's progress. A refusal is the server's message (a toast and beside the
 * form).
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { adminCommunityGoalEndpoints, type AdminCommunityGoal } from '@kickback/common/http/community-goals';
import { ApiError } from '../../lib/api';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useAdminGoals = () => useEndpointQuery(adminCommunityGoalEndpoints.list);

function GoalForm({ site, siteName, goal }: { site: number; siteName: string; goal: AdminCommunityGoal | undefined }) {
  const [title, setTitle] = useState(goal?.title ?? '');
  const [target, setTarget] = useState(goal ? String(goal.target) : '');
  const [reward, setReward] = useState(goal?.reward ?? '');
  const [active, setActive] = useState(goal?.active ?? true);
  const [error, setError] = useState<string | null>(null);
  const save = useEndpointMutation(adminCommunityGoalEndpoints.save, {
    invalidates: [adminCommunityGoalEndpoints.list],
  });
  const id = `goal-${site}`;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const number = Number(target.trim());
    if (target.trim() === '' || !Number.isFinite(number)) {
      setError('Enter the target as a number, like 1000000.');
      return;
    }
    try {
      await save.mutateAsync({ params: { site }, body: { title, target: number, reward, active } });
      toast.success(`${siteName} community goal saved.`);
    } catch (err) {
      if (err instanceof ApiError) setError(err.fields.map((f) => f.message).join(' ') || err.serverMessage);
    }
  };
  return (
    <Form onSubmit={(e) => void submit(e)} noValidate aria-label={`${siteName} community goal`}>
      <div className="row g-3">
        <Form.Group className="col-md-6" controlId={`${id}-title`}>
          <Form.Label>Goal title</Form.Label>
          <Form.Control
            value={title}
            maxLength={80}
            placeholder="$1,000,000 wagered on the code this week"
            onChange={(e) => setTitle(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-md-3" controlId={`${id}-target`}>
          <Form.Label>Target</Form.Label>
          <Form.Control inputMode="decimal" value={target} onChange={(e) => setTarget(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-md-3 d-flex align-items-end" controlId={`${id}-active`}>
          <Form.Check
            type="switch"
            label="Show the goal"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
          />
        </Form.Group>
        <Form.Group className="col-12" controlId={`${id}-reward`}>
          <Form.Label>Reward when reached</Form.Label>
          <Form.Control
            value={reward}
            maxLength={200}
            placeholder="A $500 raffle opens for everyone on the board"
            onChange={(e) => setReward(e.target.value)}
          />
        </Form.Group>
      </div>
      {error && (
        <p className="text-danger mt-2 mb-0" role="alert">
          {error}
        </p>
      )}
      <div className="d-flex flex-wrap align-items-center gap-3 mt-3">
        <Button type="submit" disabled={save.isPending}>
          Save goal
        </Button>
        {goal && (
          <span className="text-body-secondary" data-testid={`${id}-progress`}>
            This period: {formatAmount(goal.progress)} of {formatAmount(goal.target)}
            {goal.reachedAt ? ` · reached ${new Date(goal.reachedAt).toLocaleString()}` : ''}
          </span>
        )}
      </div>
    </Form>
  );
}

export function AdminGoalSection({ site, siteName }: { site: number; siteName: string }) {
  const goals = useAdminGoals();
  if (goals.isPending) return null;
  const goal = goals.data?.find((g) => g.site === site);
  return (
    <section className="kb-card mb-4" aria-labelledby={`goal-${site}-heading`}>
      <h2 className="h5" id={`goal-${site}-heading`}>
        Community goal
      </h2>
      <p className="text-body-secondary">
        A goal everyone wagering on {siteName} works towards each period: the board, the home page and the OBS overlay{' '}
        <code>/overlay/goal</code> show it, and reaching it is announced in Kick chat once.
      </p>
      <GoalForm
        key={goal ? `${goal.title}:${goal.target}:${goal.reward}:${goal.active}` : 'new'}
        site={site}
        siteName={siteName}
        goal={goal}
      />
    </section>
  );
}
