/**
 * Admin: milestone ladders (`/admin/milestones`; docs/features/milestone-rewards.md#the-ladder):
 * per partner site the tiers (name, wager threshold, reward in points or cash / site tip), the
 * cycle (the leaderboard period or all-time), claim or automatic payouts, a preset to start from,
 * and per tier how many reached and were paid this cycle with the totals paid per cycle (CSV).
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import {
  milestoneEndpoints,
  type AdminLadder,
  type LadderStats,
  type MilestoneTier,
} from '@kickback/common/http/milestones';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

interface TierDraft {
  name: string;
  threshold: string;
  rewardKind: 'points' | 'cash';
  rewardAmount: string;
}

const draftOf = (t: MilestoneTier): TierDraft => ({
  name: t.name,
  threshold: String(t.threshold),
  rewardKind: t.rewardKind,
  rewardAmount: String(t.rewardAmount),
});

function csvOf(ladder: AdminLadder, stats: LadderStats): string {
  const cell = (v: string | number) => `"${String(v).replaceAll('"', '""')}"`;
  const lines = [
    ['site', 'tier', 'threshold', 'reached this cycle', 'paid this cycle'].map(cell).join(','),
    ...stats.tiers.map((t) => [ladder.siteName, t.name, t.threshold, t.reached, t.claimed].map(cell).join(',')),
    '',
    ['site', 'cycle', 'points paid', 'cash paid', 'viewers paid'].map(cell).join(','),
    ...stats.cycles.map((c) => [ladder.siteName, c.label, c.paidPoints, c.paidCash, c.paidUsers].map(cell).join(',')),
  ];
  return `${lines.join('\n')}\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function Stats({ ladder }: { ladder: AdminLadder }) {
  const { data } = useEndpointQuery(milestoneEndpoints.stats, { params: { site: ladder.site } });
  if (!data) return null;
  return (
    <div className="mt-4">
      <div className="d-flex align-items-center gap-3 mb-2">
        <h3 className="h6 mb-0">This cycle</h3>
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={() =>
            download(`milestones-${ladder.siteName.toLowerCase().replace(/\W+/g, '-')}.csv`, csvOf(ladder, data))
          }
        >
          Export CSV
        </Button>
      </div>
      <Table size="sm" responsive>
        <thead>
          <tr>
            <th>Tier</th>
            <th className="text-end">Threshold</th>
            <th className="text-end">Reached</th>
            <th className="text-end">Paid</th>
          </tr>
        </thead>
        <tbody>
          {data.tiers.map((t) => (
            <tr key={t.name}>
              <td>{t.name}</td>
              <td className="text-end">{formatAmount(t.threshold)}</td>
              <td className="text-end">{t.reached}</td>
              <td className="text-end">{t.claimed}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h3 className="h6">Paid per cycle</h3>
      <Table size="sm" responsive>
        <thead>
          <tr>
            <th>Cycle</th>
            <th className="text-end">Points</th>
            <th className="text-end">Cash</th>
            <th className="text-end">Viewers</th>
          </tr>
        </thead>
        <tbody>
          {data.cycles.length === 0 && (
            <tr>
              <td colSpan={4} className="text-body-secondary">
                Nothing paid yet.
              </td>
            </tr>
          )}
          {data.cycles.map((c) => (
            <tr key={c.cycleKey}>
              <td>{c.label}</td>
              <td className="text-end">{formatAmount(c.paidPoints)}</td>
              <td className="text-end">${formatAmount(c.paidCash)}</td>
              <td className="text-end">{c.paidUsers}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function LadderForm({ ladder, preset }: { ladder: AdminLadder; preset: readonly MilestoneTier[] }) {
  const [enabled, setEnabled] = useState(ladder.enabled);
  const [automatic, setAutomatic] = useState(ladder.automatic);
  const [cycle, setCycle] = useState(ladder.cycle);
  const [tiers, setTiers] = useState<TierDraft[]>(ladder.tiers.map(draftOf));
  const save = useEndpointMutation(milestoneEndpoints.saveLadder, {
    invalidates: [milestoneEndpoints.adminLadders, milestoneEndpoints.stats, milestoneEndpoints.ladders],
  });
  const id = (what: string, i?: number) => `kb-ms-${ladder.site}-${what}${i === undefined ? '' : `-${i}`}`;
  const setTier = (i: number, patch: Partial<TierDraft>) =>
    setTiers((list) => list.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const submit = async () => {
    try {
      await save.mutateAsync({ params: { site: ladder.site }, body: { enabled, automatic, cycle, tiers } });
      toast.success(`${ladder.siteName} ladder saved.`);
    } catch {
      // The API layer's toast names the first problem.
    }
  };
  return (
    <section className="kb-card p-3 mb-4" aria-labelledby={id('title')}>
      <h2 className="h5" id={id('title')}>
        {ladder.siteName}
      </h2>
      <div className="d-flex flex-wrap gap-4 mb-3">
        <Form.Check
          id={id('enabled')}
          type="switch"
          label="Ladder on"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <Form.Check
          id={id('automatic')}
          type="switch"
          label="Pay automatically when the poller sees a tier reached"
          checked={automatic}
          onChange={(e) => setAutomatic(e.target.checked)}
        />
        <Form.Group controlId={id('cycle')} className="d-flex align-items-center gap-2">
          <Form.Label className="mb-0">Cycle</Form.Label>
          <Form.Select size="sm" value={cycle} onChange={(e) => setCycle(e.target.value as AdminLadder['cycle'])}>
            <option value="period">The leaderboard period</option>
            <option value="all_time">All-time</option>
          </Form.Select>
        </Form.Group>
      </div>
      <Table size="sm" responsive>
        <thead>
          <tr>
            <th>Name</th>
            <th>Wager threshold</th>
            <th>Reward</th>
            <th>Amount</th>
            <th aria-label="Remove" />
          </tr>
        </thead>
        <tbody>
          {tiers.map((t, i) => (
            <tr key={i}>
              <td>
                <Form.Control
                  size="sm"
                  aria-label={`Tier ${i + 1} name`}
                  value={t.name}
                  maxLength={40}
                  onChange={(e) => setTier(i, { name: e.target.value })}
                />
              </td>
              <td>
                <Form.Control
                  size="sm"
                  inputMode="decimal"
                  aria-label={`Tier ${i + 1} threshold`}
                  value={t.threshold}
                  onChange={(e) => setTier(i, { threshold: e.target.value })}
                />
              </td>
              <td>
                <Form.Select
                  size="sm"
                  aria-label={`Tier ${i + 1} reward kind`}
                  value={t.rewardKind}
                  onChange={(e) => setTier(i, { rewardKind: e.target.value as TierDraft['rewardKind'] })}
                >
                  <option value="points">Points</option>
                  <option value="cash">Cash / site tip (USD)</option>
                </Form.Select>
              </td>
              <td>
                <Form.Control
                  size="sm"
                  inputMode="decimal"
                  aria-label={`Tier ${i + 1} reward`}
                  value={t.rewardAmount}
                  onChange={(e) => setTier(i, { rewardAmount: e.target.value })}
                />
              </td>
              <td>
                <Button
                  size="sm"
                  variant="outline-danger"
                  onClick={() => setTiers((list) => list.filter((_, j) => j !== i))}
                >
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <div className="d-flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={() =>
            setTiers((list) => [...list, { name: '', threshold: '', rewardKind: 'points', rewardAmount: '' }])
          }
        >
          Add a tier
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => setTiers(preset.map(draftOf))}>
          Start from the preset
        </Button>
        <Button size="sm" className="ms-auto" onClick={() => void submit()} disabled={save.isPending}>
          Save
        </Button>
      </div>
      {ladder.updatedBy && (
        <p className="small text-body-secondary mt-2 mb-0">
          Last saved by {ladder.updatedBy}
          {ladder.updatedAt ? `, ${new Date(ladder.updatedAt).toLocaleString()}` : ''}.
        </p>
      )}
      {ladder.enabled && <Stats ladder={ladder} />}
    </section>
  );
}

export default function AdminMilestonesPage() {
  const { data } = useEndpointQuery(milestoneEndpoints.adminLadders);
  return (
    <div className="container py-4" style={{ maxWidth: 980 }}>
      <h1 className="h3">Milestone Ladders</h1>
      <p className="text-body-secondary">
        Each tier a verified viewer&apos;s wager reaches adds its reward; a claim (or the poller, in automatic mode)
        pays what the tiers reached are worth beyond what the cycle already paid. Points go through the staff prize
        limits; cash and site tips wait in Fulfilment for delivery.
      </p>
      {data?.ladders.map((l) => (
        <LadderForm key={`${l.site}-${l.updatedAt ?? ''}`} ladder={l} preset={data.preset} />
      ))}
    </div>
  );
}
