/**
 * Admin → Integrations → Discord server (docs/features/discord-roles.md): the streamer's server,
 * the role each rule gives and the go-live channel; Check asks Discord whether the bot can do it
 * (in the server, Manage Roles, its role above the ones it gives) and says what is missing; the
 * last refusal from Discord stays shown until fixed. Loaded only when the Integrations page draws.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { FaCheck, FaXmark } from 'react-icons/fa6';
import {
  discordRoleEndpoints,
  type DiscordRoleCheck,
  type DiscordRoleSettings,
} from '@kickback/common/http/discord-roles';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

/** The role map limited to the rules the server lists now. */
function keep(roleIds: Record<string, string>, rules: DiscordRoleSettings['rules']): Record<string, string> {
  return Object.fromEntries(Object.entries(roleIds).filter(([key]) => rules.some((r) => r.key === key)));
}

function RolesForm({ settings }: { settings: DiscordRoleSettings }) {
  const [guildId, setGuildId] = useState(settings.guildId ?? '');
  const [channelId, setChannelId] = useState(settings.goLiveChannelId ?? '');
  const [roleIds, setRoleIds] = useState<Record<string, string>>(settings.roleIds);
  const [check, setCheck] = useState<DiscordRoleCheck | null>(null);
  const save = useEndpointMutation(discordRoleEndpoints.save, { invalidates: [discordRoleEndpoints.settings] });
  const runCheck = useEndpointMutation(discordRoleEndpoints.check);
  const reconcile = useEndpointMutation(discordRoleEndpoints.reconcile, {
    invalidates: [discordRoleEndpoints.settings],
  });
  useEffect(() => {
    if (settings.guildId) runCheck.mutate({}, { onSuccess: setCheck });
    // Once, when the card opens with a server saved.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSave = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      // Only the rules that exist now: a tier whose ladder changed since is dropped, not refused.
      { body: { guildId, goLiveChannelId: channelId, roleIds: keep(roleIds, settings.rules) } },
      {
        onSuccess: () => {
          toast.success('Discord server saved.');
          runCheck.mutate({}, { onSuccess: setCheck });
        },
      },
    );
  };
  const roles = check?.roles ?? [];

  return (
    <Form onSubmit={onSave} noValidate>
      {settings.lastProblem && (
        <Alert variant="danger" role="alert">
          {settings.lastProblem}
        </Alert>
      )}
      {save.error && <Alert variant="danger">{save.error.message}</Alert>}
      <div className="row g-3 mb-3">
        <Form.Group className="col-md-6" controlId="kb-discord-guild">
          <Form.Label>Server id</Form.Label>
          <Form.Control
            value={guildId}
            onChange={(e) => setGuildId(e.target.value)}
            inputMode="numeric"
            maxLength={25}
          />
        </Form.Group>
        <Form.Group className="col-md-6" controlId="kb-discord-channel">
          <Form.Label>Go-live channel id</Form.Label>
          <Form.Control
            value={channelId}
            onChange={(e) => setChannelId(e.target.value)}
            inputMode="numeric"
            maxLength={25}
          />
          <Form.Text>A message with the title, category and link when the stream goes live. Empty: none.</Form.Text>
        </Form.Group>
      </div>
      <h3 className="h6">Roles given and taken automatically</h3>
      <div className="row g-3 mb-3">
        {settings.rules.map((rule) => (
          <Form.Group className="col-md-6" key={rule.key} controlId={`kb-discord-role-${rule.key}`}>
            <Form.Label>{rule.label}</Form.Label>
            {roles.length > 0 ? (
              <Form.Select
                value={roleIds[rule.key] ?? ''}
                onChange={(e) => setRoleIds({ ...roleIds, [rule.key]: e.target.value })}
              >
                <option value="">No role</option>
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    @{r.name}
                    {r.givable ? '' : ' (above the bot)'}
                  </option>
                ))}
              </Form.Select>
            ) : (
              <Form.Control
                value={roleIds[rule.key] ?? ''}
                onChange={(e) => setRoleIds({ ...roleIds, [rule.key]: e.target.value })}
                inputMode="numeric"
                maxLength={25}
                placeholder="Role id"
              />
            )}
          </Form.Group>
        ))}
      </div>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button type="submit" disabled={save.isPending}>
          Save
        </Button>
        <Button
          variant="outline-secondary"
          onClick={() => runCheck.mutate({}, { onSuccess: setCheck })}
          disabled={runCheck.isPending}
        >
          Check
        </Button>
        <Button
          variant="outline-secondary"
          onClick={() => reconcile.mutate({}, { onSuccess: (r) => toast.success(r.message) })}
          disabled={reconcile.isPending || !settings.guildId}
        >
          Reconcile now
        </Button>
      </div>
      {check && (
        <ul className="list-unstyled mb-3" aria-label="Discord check">
          {check.items.map((i) => (
            <li key={i.id} className="d-flex gap-2 align-items-start mb-1">
              {i.ok ? (
                <FaCheck className="text-success mt-1 flex-shrink-0" aria-label="Ready" />
              ) : (
                <FaXmark className="text-danger mt-1 flex-shrink-0" aria-label="Missing" />
              )}
              <span>
                <strong>{i.label}:</strong> {i.detail}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-body-secondary small mb-0">
        Queue: {settings.queue.pending} waiting, {settings.queue.failed} refused. Nightly reconcile:{' '}
        {settings.lastReconcileAt ? new Date(settings.lastReconcileAt).toLocaleString() : 'not yet'}.
        {settings.lastPost
          ? ` Last go-live post: ${settings.lastPost.status}${settings.lastPost.title ? ` (${settings.lastPost.title})` : ''}.`
          : ''}
      </p>
    </Form>
  );
}

export default function DiscordRolesCard() {
  const query = useEndpointQuery(discordRoleEndpoints.settings, {}, { staleTime: 0 });
  const settings = query.data;
  return (
    <section className="kb-card mb-4" aria-labelledby="kb-discord-roles-title">
      <h2 id="kb-discord-roles-title" className="h5">
        Discord server: roles and go-live posts
      </h2>
      {!settings ? (
        <p className="text-body-secondary">Loading…</p>
      ) : settings.botMode === 'off' ? (
        <p className="text-body-secondary mb-0">
          Needs the Discord bot token: enter it on Admin → Settings → Integrations.
        </p>
      ) : (
        <RolesForm settings={settings} />
      )}
    </section>
  );
}
