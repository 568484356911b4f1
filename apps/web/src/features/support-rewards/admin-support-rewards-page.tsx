/**
 * Admin → Support rewards (docs/features/support-rewards.md, docs/features/channel-points.md): the
 * points paid for subs, gifted subs (to the gifter), KICKs and follows, the daily cap and the
 * pending window; the rewards kept, a page at a time (reverse one, grant a missed one); and the Kick
 * channel rewards that pay points.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import {
  type SupportReward,
  channelRewardBody,
  KICK_REWARDS_MAX,
  supportRewardEndpoints,
  supportRewardKindNames,
  supportRewardSettingsBody,
  type SupportRewardSettings,
} from '@kickback/common/http/support-rewards';
import { Pager } from '../../components/ui/pager';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { usePaged } from '../../lib/use-paged';
import { GrantForm } from './grant-form';
import { StreakBonuses } from './streak-bonuses';

const amountFields = [
  ['subPoints', 'Points per new or renewed sub'],
  ['giftPoints', 'Points per gifted sub (to the gifter)'],
  ['kickPoints', 'Points per KICK'],
  ['followPoints', 'Points for a first follow'],
  ['dailyCap', 'Daily cap per user per kind (0 = none)'],
  ['pendingHours', 'Pending window for unlinked Kick accounts (hours)'],
  ['giftHoldMinutes', 'Hold gifted subs before paying (minutes, 0 = pay at once)'],
] as const;
const wholeFields: ReadonlySet<string> = new Set(['pendingHours', 'giftHoldMinutes']);

const asForm = (s: SupportRewardSettings) => ({
  enabled: s.enabled,
  subPoints: String(s.subPoints),
  giftPoints: String(s.giftPoints),
  kickPoints: String(s.kickPoints),
  followPoints: String(s.followPoints),
  dailyCap: String(s.dailyCap),
  pendingHours: String(s.pendingHours),
  giftHoldMinutes: String(s.giftHoldMinutes),
});

function SettingsForm({ settings }: { settings: SupportRewardSettings }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(supportRewardSettingsBody, { defaultValues: asForm(settings) });
  const save = useEndpointMutation(supportRewardEndpoints.updateSettings, {
    invalidates: [supportRewardEndpoints.settings],
  });
  const submit = handleSubmit(async (body) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      reset(asForm(data.settings));
    } catch (err) {
      setServerErrors(
        err,
        setError,
        amountFields.map(([f]) => f),
      );
    }
  });
  return (
    <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3">
      <Form.Check type="switch" id="kb-support-enabled" label="Pay support rewards" {...register('enabled')} />
      <div className="row g-3 mt-1">
        {amountFields.map(([field, label]) => (
          <Form.Group key={field} className="col-sm-6" controlId={`kb-support-${field}`}>
            <Form.Label>{label}</Form.Label>
            <Form.Control
              inputMode={wholeFields.has(field) ? 'numeric' : 'decimal'}
              isInvalid={Boolean(errors[field])}
              aria-describedby={`kb-support-${field}-error`}
              {...register(field)}
            />
            <FieldError id={`kb-support-${field}-error`} message={errors[field]?.message} />
          </Form.Group>
        ))}
      </div>
      <Button type="submit" className="mt-3" disabled={isSubmitting || !isDirty}>
        Save
      </Button>
    </Form>
  );
}

/** Reverse a paid reward (takes the points back) or a held gift (it never pays). */
function ReverseButton({ reward }: { reward: SupportReward }) {
  const reverse = useEndpointMutation(supportRewardEndpoints.reverse, {
    invalidates: [supportRewardEndpoints.list, supportRewardEndpoints.held],
  });
  return (
    <Button
      size="sm"
      variant="outline-danger"
      disabled={reverse.isPending}
      onClick={() =>
        void reverse
          .mutateAsync({ params: { id: reward.id } })
          .then((d) => toast.success(d.message))
          .catch(() => undefined)
      }
    >
      Reverse
    </Button>
  );
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The gifted subs on hold: Kick fires gift events for failed payments, so they wait to be reversed. */
function HeldGifts() {
  const { data } = useEndpointQuery(supportRewardEndpoints.held, {}, { refetchInterval: 15_000 });
  if (!data) return null;
  if (data.length === 0) return <p className="text-body-secondary">No gifted subs on hold.</p>;
  return (
    <ul className="list-group kb-card p-0" aria-label="Gifted subs on hold">
      {data.map((r) => (
        <li key={r.id} className="list-group-item d-flex align-items-center gap-2 flex-wrap">
          <span className="flex-grow-1">
            {r.kickUsername ?? 'Anonymous'} gifted {r.units} sub{r.units === 1 ? '' : 's'}
            {r.username ? ` (${r.username})` : ''}
            {r.holdUntil && <span className="text-body-secondary"> · pays at {timeOf(r.holdUntil)}</span>}
          </span>
          <ReverseButton reward={r} />
        </li>
      ))}
    </ul>
  );
}

function RewardsKept() {
  const [page, setPage] = useState(1);
  const { data } = usePaged(supportRewardEndpoints.list, page);
  if (!data) return null;
  if (data.total === 0) return <p className="text-body-secondary">No support events yet.</p>;
  return (
    <>
      <div className="table-responsive kb-card p-0" tabIndex={0} role="region" aria-label="Support events">
        <Table size="sm" className="mb-0">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kick name</th>
              <th scope="col">Site user</th>
              <th scope="col">What</th>
              <th scope="col">Points</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((r) => (
              <tr key={r.id}>
                <td>{new Date(r.eventAt).toLocaleString()}</td>
                <td>{r.kickUsername ?? 'Anonymous'}</td>
                <td>{r.username ?? '—'}</td>
                <td>
                  {supportRewardKindNames[r.kind]} × {r.units}
                </td>
                <td>{r.amount.toLocaleString('en-US')}</td>
                <td>
                  {r.status}
                  {r.holdUntil && <div className="small text-body-secondary">Pays at {timeOf(r.holdUntil)}</div>}
                  {r.note && <div className="small text-body-secondary">{r.note}</div>}
                </td>
                <td>{(r.status === 'paid' || r.status === 'held') && <ReverseButton reward={r} />}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <Pager label="Reward pages" page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />
    </>
  );
}

function ChannelRewards() {
  const { data } = useEndpointQuery(supportRewardEndpoints.channelRewards);
  const create = useEndpointMutation(supportRewardEndpoints.createChannelReward, {
    invalidates: [supportRewardEndpoints.channelRewards],
  });
  const remove = useEndpointMutation(supportRewardEndpoints.deleteChannelReward, {
    invalidates: [supportRewardEndpoints.channelRewards],
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(channelRewardBody, { defaultValues: { title: '', cost: '', points: '' } });
  const submit = handleSubmit(async (body) => {
    try {
      const answer = await create.mutateAsync({ body });
      toast.success(answer.message);
      reset();
    } catch (err) {
      setServerErrors(err, setError, ['title', 'cost', 'points']);
    }
  });
  return (
    <>
      {data && data.length > 0 && (
        <div className="table-responsive kb-card p-0" tabIndex={0} role="region" aria-label="Channel-point rewards">
          <Table size="sm" className="mb-0">
            <thead>
              <tr>
                <th scope="col">Kick reward</th>
                <th scope="col">Channel points</th>
                <th scope="col">Site points</th>
                <th scope="col">Redeemed</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((r) => (
                <tr key={r.id}>
                  <td>{r.title}</td>
                  <td>{r.cost.toLocaleString('en-US')}</td>
                  <td>{r.points.toLocaleString('en-US')}</td>
                  <td>{r.redemptions}</td>
                  <td>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={remove.isPending}
                      onClick={() =>
                        void remove
                          .mutateAsync({ params: { id: r.id } })
                          .then((d) => toast.success(d.message))
                          .catch(() => undefined)
                      }
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3 row g-3 mx-0">
        {(
          [
            ['title', 'Reward title on Kick', 'text'],
            ['cost', 'Cost in channel points', 'numeric'],
            ['points', 'Site points it pays', 'decimal'],
          ] as const
        ).map(([field, label, mode]) => (
          <Form.Group key={field} className="col-sm-4" controlId={`kb-channel-reward-${field}`}>
            <Form.Label>{label}</Form.Label>
            <Form.Control
              inputMode={mode}
              isInvalid={Boolean(errors[field])}
              aria-describedby={`kb-channel-reward-${field}-error`}
              {...register(field)}
            />
            <FieldError id={`kb-channel-reward-${field}-error`} message={errors[field]?.message} />
          </Form.Group>
        ))}
        <div>
          <Button type="submit" disabled={isSubmitting}>
            Create on Kick
          </Button>
        </div>
      </Form>
    </>
  );
}

export default function AdminSupportRewardsPage() {
  const { data } = useEndpointQuery(supportRewardEndpoints.settings);
  return (
    <div className="container py-4" style={{ maxWidth: 960 }}>
      <h1 className="h3">Support Rewards</h1>
      <p className="text-body-secondary">
        Points for supporting the stream on Kick, paid to linked accounts (never to excluded ones). A gifted sub pays
        the gifter; anonymous gifts pay nobody. An event for a Kick account that is not linked yet waits for the link
        within the pending window. Kick has sent gift events for failed payments: gifted subs wait on hold for the set
        minutes before they pay, so such a gift can be reversed below before it pays.
      </p>
      {data && <SettingsForm key={data.updatedAt} settings={data} />}
      <h2 className="h5 mt-4">Gifted subs on hold</h2>
      <HeldGifts />
      <h2 className="h5 mt-4">Rewards paid</h2>
      <RewardsKept />
      <h3 className="h6 mt-3">Grant a missed reward</h3>
      <p className="text-body-secondary">
        Kick sometimes drops events. Pay one by hand at today’s amounts, past the daily cap; excluded and banned
        accounts are never paid.
      </p>
      <GrantForm />
      <h2 className="h5 mt-4">Kick channel points</h2>
      <p className="text-body-secondary">
        Each Kick channel reward made here pays site points when a linked viewer redeems it; anyone else’s redemption is
        rejected on Kick, which refunds the channel points. Kick allows {KICK_REWARDS_MAX} rewards per channel.
      </p>
      <ChannelRewards />
      <h2 className="h5 mt-4">Stream streak bonuses</h2>
      <p className="text-body-secondary">
        A linked viewer who chats during streams in a row keeps a streak (shown on their profile). Reaching a length
        below pays its bonus once, never to excluded or banned accounts.
      </p>
      <StreakBonuses />
    </div>
  );
}
