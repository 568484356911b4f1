/**
 * /admin/daily-rewards (admin, not in spec/): the per-type policies behind the six daily rewards —
 * on or off, the fixed amount of types 0–4, and for type 5 (Roobet) the streamer's affiliate
 * earnings as a percentage of the user's previous-day weighted wager, paid back in full.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { AFFILIATE_REWARD_TYPE, rewardTypeOf, type RewardPolicy } from '@kickback/common/http/daily-rewards';
import { loadPolicies, savePolicy } from './api';
import { RewardIcon } from './reward-icon';
import './daily-rewards.css';

function PolicyRow({ policy, onSaved }: { policy: RewardPolicy; onSaved(p: RewardPolicy): void }) {
  const info = rewardTypeOf(policy.type);
  const affiliate = policy.type === AFFILIATE_REWARD_TYPE;
  const [enabled, setEnabled] = useState(policy.enabled);
  const [value, setValue] = useState(String(affiliate ? policy.earningsPercent : policy.amount));
  const [saving, setSaving] = useState(false);
  const dirty = enabled !== policy.enabled || value !== String(affiliate ? policy.earningsPercent : policy.amount);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const number = Number(value);
    try {
      const saved = await savePolicy(policy.type, {
        enabled,
        amount: affiliate ? policy.amount : number,
        earningsPercent: affiliate ? number : policy.earningsPercent,
      });
      toast.success(`${info.site} daily reward saved.`);
      onSaved(saved);
    } catch {
      // the API wrapper showed why
    } finally {
      setSaving(false);
    }
  };

  const id = `policy-${policy.type}`;
  return (
    <Form className="kb-policy-row" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-name`}>
      <div>
        <div className="fw-semibold d-flex align-items-center gap-2" id={`${id}-name`}>
          <RewardIcon icon={info.icon} /> Type {policy.type} · {info.site}
        </div>
        <div className="small text-body-secondary">
          {affiliate ? 'Pays back the affiliate earnings on yesterday’s wager' : `Fixed amount in ${info.unit}`} ·{' '}
          <code>{info.action}</code>
        </div>
      </div>
      <Form.Check
        type="switch"
        id={`${id}-enabled`}
        label="On"
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <Form.Group controlId={`${id}-value`}>
        <Form.Label visuallyHidden>{affiliate ? 'Affiliate earnings (%)' : `Amount (${info.unit})`}</Form.Label>
        <InputGroup size="sm">
          <Form.Control inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
          <InputGroup.Text>{affiliate ? '% of wager' : info.unit}</InputGroup.Text>
        </InputGroup>
      </Form.Group>
      <Button type="submit" size="sm" disabled={saving || !dirty}>
        Save
      </Button>
    </Form>
  );
}

export default function AdminDailyRewardsPage() {
  const [policies, setPolicies] = useState<RewardPolicy[] | null>(null);
  useEffect(() => {
    loadPolicies()
      .then((r) => setPolicies(r.policies))
      .catch(() => setPolicies([]));
  }, []);
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Daily Reward Policies</h1>
      <p className="text-body-secondary mb-4" style={{ maxWidth: '48rem' }}>
        What each daily reward pays. Every claim lands in the fulfilment queue for delivery within 24 hours. The Roobet
        reward pays back 100% of the streamer&rsquo;s affiliate earnings: this percentage of what the user wagered under
        the code the previous UTC day (Roobet&rsquo;s weighted wager).
      </p>
      <div className="kb-card py-2">
        {policies === null ? (
          <Spinner animation="border" role="status" className="m-3">
            <span className="visually-hidden">Loading…</span>
          </Spinner>
        ) : (
          policies.map((p) => (
            <PolicyRow
              key={`${p.type}-${p.enabled}-${p.amount}-${p.earningsPercent}`}
              policy={p}
              onSaved={(saved) => setPolicies((list) => list?.map((x) => (x.type === saved.type ? saved : x)) ?? null)}
            />
          ))
        )}
      </div>
    </section>
  );
}
