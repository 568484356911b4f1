/**
 * /admin/daily-rewards (admin; a page of ours beyond the specified screens): the per-type policies behind the six daily rewards —
 * on or off, the fixed amount of types 0–4, and for type 5 (Roobet) the streamer's affiliate
 * earnings as a percentage of the user's previous-day weighted wager, paid back in full.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import {
  AFFILIATE_REWARD_TYPE,
  rewardPolicyForm,
  rewardTypeOf,
  type RewardPolicy,
} from '@kickback/common/http/daily-rewards';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { usePolicies, useSavePolicy } from './api';
import { RewardIcon } from './reward-icon';
import './daily-rewards.css';

const valuesOf = (p: RewardPolicy) => ({
  enabled: p.enabled,
  amount: String(p.amount),
  earningsPercent: String(p.earningsPercent),
});

function PolicyRow({ policy }: { policy: RewardPolicy }) {
  const info = rewardTypeOf(policy.type);
  const affiliate = policy.type === AFFILIATE_REWARD_TYPE;
  /** Type 5 sets the percentage; the others their fixed amount (the other value is sent unchanged). */
  const field = affiliate ? 'earningsPercent' : 'amount';
  const save = useSavePolicy();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(rewardPolicyForm, { defaultValues: valuesOf(policy) });
  const error = errors[field]?.message;

  const submit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ params: { type: policy.type }, body });
      toast.success(`${info.site} daily reward saved.`);
    } catch (err) {
      setServerErrors(err, setError, [field]); // the API wrapper showed why
    }
  });

  const id = `policy-${policy.type}`;
  return (
    <Form className="kb-policy-row" noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-name`}>
      <div>
        <div className="fw-semibold d-flex align-items-center gap-2" id={`${id}-name`}>
          <RewardIcon icon={info.icon} /> Type {policy.type} · {info.site}
        </div>
        <div className="small text-body-secondary">
          {affiliate ? 'Pays back the affiliate earnings on yesterday’s wager' : `Fixed amount in ${info.unit}`} ·{' '}
          <code>{info.action}</code>
        </div>
      </div>
      <Form.Check type="switch" id={`${id}-enabled`} label="On" {...register('enabled')} />
      <Form.Group controlId={`${id}-value`}>
        <Form.Label visuallyHidden>{affiliate ? 'Affiliate earnings (%)' : `Amount (${info.unit})`}</Form.Label>
        <InputGroup size="sm" hasValidation>
          <Form.Control
            type="number"
            inputMode="decimal"
            step={affiliate ? 0.0001 : 0.01}
            min={0}
            max={affiliate ? 100 : 1_000_000}
            isInvalid={Boolean(error)}
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-error`}
            {...register(field)}
          />
          <InputGroup.Text>{affiliate ? '% of wager' : info.unit}</InputGroup.Text>
          <FieldError id={`${id}-error`} message={error} />
        </InputGroup>
      </Form.Group>
      <Button type="submit" size="sm" disabled={isSubmitting || !isDirty}>
        Save
      </Button>
    </Form>
  );
}

export default function AdminDailyRewardsPage() {
  const policies = usePolicies().data?.policies ?? null;
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
          policies.map((p) => <PolicyRow key={`${p.type}-${p.enabled}-${p.amount}-${p.earningsPercent}`} policy={p} />)
        )}
      </div>
    </section>
  );
}
