/**
 * Admin → Fair Earning (docs/features/fair-earning.md): the daily caps on channel-point conversions
 * and chat points, the real-chat gate, the Kick account and link ages, how long sign-in signals are
 * kept; the recent refused conversions with their reasons; and the possible alts (site accounts
 * sharing a sign-in address, a device or a partner id), each excluded or included again from here
 * through the users' audited exclusion.
 */
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { adminUserEndpoints } from '@kickback/common/http/admin-users';
import {
  type AltGroup,
  fairEarningEndpoints,
  fairEarningSettingsBody,
  type FairEarningSettings,
  REAL_CHAT_WINDOW_MINUTES,
  signalKindNames,
} from '@kickback/common/http/fair-earning';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

const fields = [
  ['channelPointsDailyCap', 'Channel points: most points a user converts per day (0 = no cap)', 'decimal'],
  ['chatPointsDailyCap', 'Chat points: most points a user earns per day (0 = no cap)', 'decimal'],
  [
    'realChatMinChatters',
    `Chat points only with at least this many linked chatters in the last ${REAL_CHAT_WINDOW_MINUTES} minutes (0 = off)`,
    'numeric',
  ],
  ['minKickAccountDays', 'Kick account known to the channel for at least (days)', 'numeric'],
  ['minLinkDays', 'Kick account linked for at least (days)', 'numeric'],
  ['signalRetentionDays', 'Keep hashed sign-in signals for (days)', 'numeric'],
] as const;

const asForm = (s: FairEarningSettings) => ({
  channelPointsDailyCap: String(s.channelPointsDailyCap),
  chatPointsDailyCap: String(s.chatPointsDailyCap),
  realChatMinChatters: String(s.realChatMinChatters),
  minKickAccountDays: String(s.minKickAccountDays),
  minLinkDays: String(s.minLinkDays),
  signalRetentionDays: String(s.signalRetentionDays),
});

function SettingsForm({ settings }: { settings: FairEarningSettings }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(fairEarningSettingsBody, { defaultValues: asForm(settings) });
  const save = useEndpointMutation(fairEarningEndpoints.update, { invalidates: [fairEarningEndpoints.settings] });
  const submit = handleSubmit(async (body) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      reset(asForm(data.settings));
    } catch (err) {
      setServerErrors(
        err,
        setError,
        fields.map(([f]) => f),
      );
    }
  });
  return (
    <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3" aria-label="Fair earning settings">
      <div className="row g-3">
        {fields.map(([field, label, mode]) => (
          <Form.Group key={field} className="col-md-6" controlId={`kb-fair-${field}`}>
            <Form.Label>{label}</Form.Label>
            <Form.Control
              inputMode={mode}
              isInvalid={Boolean(errors[field])}
              aria-describedby={`kb-fair-${field}-error`}
              {...register(field)}
            />
            <FieldError id={`kb-fair-${field}-error`} message={errors[field]?.message} />
          </Form.Group>
        ))}
      </div>
      <Button type="submit" className="mt-3" disabled={isSubmitting || !isDirty}>
        Save
      </Button>
    </Form>
  );
}

function ExcludeButton({ user }: { user: AltGroup['users'][number] }) {
  const change = useEndpointMutation(adminUserEndpoints.setExcluded, { invalidates: [fairEarningEndpoints.alts] });
  const next = !user.excluded;
  return (
    <Button
      size="sm"
      variant={next ? 'outline-danger' : 'outline-secondary'}
      disabled={change.isPending}
      aria-label={`${next ? 'Exclude' : 'Include'} ${user.username}`}
      onClick={() =>
        void change
          .mutateAsync({ params: { id: user.id }, body: { excluded: next } })
          .then((d) => toast.success(d.message))
          .catch(() => undefined)
      }
    >
      {next ? 'Exclude' : 'Include'}
    </Button>
  );
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString();

function Alts() {
  const { data } = useEndpointQuery(fairEarningEndpoints.alts);
  if (!data) return null;
  return (
    <section aria-labelledby="kb-fair-alts" className="mt-4">
      <h2 id="kb-fair-alts" className="h5">
        Possible alts
      </h2>
      <p className="text-body-secondary">
        Site accounts that signed in from the same address or device, or saved the same partner id, within the last{' '}
        {data.retentionDays} days. Only keyed hashes are kept. A shared address may be a household or a public network:
        look before you exclude.
      </p>
      {data.groups.length === 0 && <p>No accounts share a signal.</p>}
      {data.groups.map((group) => (
        <div
          key={group.key}
          className="kb-card p-3 mb-3"
          role="group"
          aria-label={`${signalKindNames[group.kind]} shared by ${group.users.length} accounts`}
        >
          <h3 className="h6">
            {signalKindNames[group.kind]} · {group.users.length} accounts
          </h3>
          <Table size="sm" responsive className="mb-0">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Kick</th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {group.users.map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.username}{' '}
                    {u.excluded && (
                      <Badge bg="secondary" className="ms-1">
                        Excluded
                      </Badge>
                    )}
                  </td>
                  <td>{u.kickUsername ?? '—'}</td>
                  <td>{dateOf(u.firstSeenAt)}</td>
                  <td>{dateOf(u.lastSeenAt)}</td>
                  <td className="text-end">
                    <ExcludeButton user={u} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      ))}
    </section>
  );
}

function Refusals() {
  const { data } = useEndpointQuery(fairEarningEndpoints.refusals);
  if (!data) return null;
  return (
    <section aria-labelledby="kb-fair-refusals" className="mt-4">
      <h2 id="kb-fair-refusals" className="h5">
        Refused conversions
      </h2>
      <p className="text-body-secondary">Kick refunds the channel points of each refused redemption.</p>
      {data.items.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <Table size="sm" responsive aria-label="Refused conversions">
          <thead>
            <tr>
              <th scope="col">Kick</th>
              <th scope="col">Account</th>
              <th scope="col">Reward</th>
              <th scope="col">Reason</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((r) => (
              <tr key={r.id}>
                <td>{r.kickUsername ?? 'Anonymous'}</td>
                <td>{r.username ?? '—'}</td>
                <td>{r.reward}</td>
                <td>{r.reason}</td>
                <td>{new Date(r.at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

export default function AdminFairEarningPage() {
  const { data } = useEndpointQuery(fairEarningEndpoints.settings);
  return (
    <div className="container py-4" style={{ maxWidth: 960 }}>
      <h1 className="h3">Fair Earning</h1>
      <p className="text-body-secondary">
        Limits that keep bots and alt accounts from farming points: daily caps, points for chat only while chat is real,
        and minimum ages before a Kick account converts channel points.
      </p>
      {data && (
        <>
          <SettingsForm key={data.updatedAt} settings={data} />
          {data.updatedBy && (
            <p className="text-body-secondary small mt-2">
              Last changed by {data.updatedBy}, {new Date(data.updatedAt).toLocaleString()}.
            </p>
          )}
        </>
      )}
      <Refusals />
      <Alts />
    </div>
  );
}
