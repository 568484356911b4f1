/**
 * Admin: Integrations. Every outside service as this server sees it — real or simulated,
 * configured or not, last success, last failure with its reason, next attempt — and the Kick bot:
 * connect it (Kick's OAuth 2.1 consent page), see its token, disconnect it — and the bot messages'
 * queue and posting mode (kick-chat-card.tsx). An operator sees at a glance why nothing is arriving.
 */
import { lazy, Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSearchParams } from 'react-router';
import { FaArrowsRotate, FaLink, FaLinkSlash, FaTriangleExclamation } from 'react-icons/fa6';
import {
  KICK_BOT_WHOSE_ACCOUNT,
  type IntegrationHealth,
  type IntegrationRow,
  type IntegrationsOverview,
} from '@kickback/common/http/integrations';
import { useConnectKickBot, useDisconnectKickBot, useIntegrations } from './api';
import { KickEventsCard } from './kick-events-card';
import { KickChatCard } from './kick-chat-card';

/** The Discord server section: its own chunk, fetched when the page draws (docs/features/discord-roles.md). */
const DiscordRolesCard = lazy(() => import('./discord-roles-card'));
import './integrations.css';

const healthBadge: Record<IntegrationHealth, { bg: string; text: string }> = {
  ok: { bg: 'success', text: 'Working' },
  failing: { bg: 'danger', text: 'Failing' },
  waiting: { bg: 'warning', text: 'Not used yet' },
  off: { bg: 'secondary', text: 'Not configured' },
};

const modeText = { real: 'Real', simulated: 'Simulated', off: 'Off' } as const;

function when(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString([], {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

function Row({ row }: { row: IntegrationRow }) {
  const badge = healthBadge[row.health];
  return (
    <tr className={row.health === 'failing' ? 'kb-int-failing' : undefined} data-integration={row.id}>
      <td>
        <div className="fw-semibold">{row.name}</div>
        <div className="kb-int-note">{row.note}</div>
      </td>
      <td>
        <Badge
          bg={row.mode === 'real' ? 'primary' : row.mode === 'simulated' ? 'info' : 'secondary'}
          text={row.mode === 'simulated' ? 'dark' : undefined}
        >
          {modeText[row.mode]}
        </Badge>
      </td>
      <td>
        <Badge bg={badge.bg} text={badge.bg === 'warning' ? 'dark' : undefined}>
          {badge.text}
        </Badge>
      </td>
      <td className="text-nowrap">
        {when(row.lastSuccessAt)}
        {row.detail && <div className="kb-int-note">{row.detail}</div>}
      </td>
      <td>
        {row.lastFailureAt ? (
          <>
            <div className="text-nowrap">{when(row.lastFailureAt)}</div>
            <div className="kb-int-failure">{row.lastFailure}</div>
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="text-nowrap">{when(row.nextAttemptAt)}</td>
    </tr>
  );
}

function KickBotCard({ data }: { data: IntegrationsOverview }) {
  const bot = data.kickBot;
  const connectKickBot = useConnectKickBot();
  const disconnectKickBot = useDisconnectKickBot();
  // Connecting leaves for Kick's consent page, so the buttons stay off once the URL is back.
  const busy = connectKickBot.isPending || connectKickBot.isSuccess || disconnectKickBot.isPending;
  const connect = () => connectKickBot.mutate({}, { onSuccess: ({ url }) => window.location.assign(url) });
  const disconnect = () => disconnectKickBot.mutate({});
  const live = data.kickLive;
  return (
    <section className="kb-card mb-4" aria-labelledby="kb-kick-bot-title">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 id="kb-kick-bot-title" className="h5 mb-0 me-auto">
          Kick bot
        </h2>
        <Badge bg={live.isLive ? 'danger' : 'secondary'} aria-label="Stream state">
          {live.isLive === null
            ? 'Stream state unknown'
            : live.isLive
              ? `Live${live.title ? `: ${live.title}` : ''}`
              : 'Offline'}
        </Badge>
        <Badge
          bg={bot.mode === 'real' ? 'primary' : bot.mode === 'simulated' ? 'info' : 'secondary'}
          text={bot.mode === 'simulated' ? 'dark' : undefined}
        >
          {bot.mode === 'simulated' ? 'Kick simulator' : modeText[bot.mode]}
        </Badge>
      </div>
      <p className="small text-body-secondary mb-3">
        Chat replies (such as the answer to <code>!verify</code>) are posted with this account&apos;s token.{' '}
        <strong>{KICK_BOT_WHOSE_ACCOUNT}</strong> Kick tokens last two hours; the server refreshes them before they
        expire and after Kick refuses one, and stores them encrypted.
      </p>
      {bot.connected ? (
        <dl className="row small mb-3" aria-label="Kick bot token">
          <dt className="col-sm-3">Connected as</dt>
          <dd className="col-sm-9" data-testid="kick-bot-user">
            {bot.kickUsername}
          </dd>
          <dt className="col-sm-3">Token expires</dt>
          <dd className="col-sm-9">{when(bot.expiresAt)}</dd>
          <dt className="col-sm-3">Refreshed</dt>
          <dd className="col-sm-9" data-testid="kick-bot-refreshes">
            {bot.refreshCount === 1 ? 'once' : `${bot.refreshCount} times`}
            {bot.refreshedAt ? `, last ${when(bot.refreshedAt)}` : ''}
          </dd>
          <dt className="col-sm-3">Scopes</dt>
          <dd className="col-sm-9">
            <code>{bot.scope}</code>
          </dd>
          {bot.lastError && (
            <>
              <dt className="col-sm-3 text-danger">Last error</dt>
              <dd className="col-sm-9 text-danger">
                {when(bot.lastErrorAt)} — {bot.lastError}
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p className="mb-3">Not connected: replies are only written to the log.</p>
      )}
      {bot.cannotConnect ? (
        <Alert variant="warning" className="mb-0 py-2">
          {bot.cannotConnect}
        </Alert>
      ) : (
        <div className="d-flex flex-wrap gap-2">
          <Button variant="primary" disabled={busy} onClick={connect}>
            <FaLink aria-hidden className="me-2" />
            {bot.connected ? 'Reconnect Kick bot' : 'Connect Kick bot'}
          </Button>
          {bot.connected && (
            <Button variant="danger" disabled={busy} onClick={disconnect}>
              <FaLinkSlash aria-hidden className="me-2" />
              Disconnect
            </Button>
          )}
        </div>
      )}
      {bot.tokenKeySource && <p className="small text-body-secondary mt-2 mb-0">Token key: {bot.tokenKeySource}.</p>}
    </section>
  );
}

const groups: Array<IntegrationRow['group']> = ['Steam', 'Kick', 'Discord', 'Partners'];

export default function IntegrationsPage() {
  const integrations = useIntegrations();
  const data = integrations.data ?? null;
  const [params, setParams] = useSearchParams();
  const loading = integrations.isRefetching;

  const outcome = params.get('kickBot');
  const failing = data?.rows.filter((r) => r.health === 'failing') ?? [];

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h3 mb-0 me-auto">Integrations</h1>
        <Button variant="outline-secondary" size="sm" onClick={() => void integrations.refetch()} disabled={loading}>
          {loading ? <Spinner animation="border" size="sm" aria-hidden /> : <FaArrowsRotate aria-hidden />}
          <span className="ms-2">Refresh</span>
        </Button>
      </div>
      <p className="text-body-secondary mb-4">
        Every outside service as this server sees it: whether it is the real service or the local simulator, when it
        last worked, and the reason it last failed.{data ? ` Checked ${when(data.checkedAt)}.` : ''}
      </p>
      {outcome === 'connected' && (
        <Alert variant="success" dismissible onClose={() => setParams({})}>
          Kick bot connected.
        </Alert>
      )}
      {outcome === 'error' && (
        <Alert variant="danger" dismissible onClose={() => setParams({})}>
          {params.get('message') ?? 'Connecting the Kick bot failed.'}
        </Alert>
      )}
      {failing.length > 0 && (
        <Alert variant="danger" className="d-flex gap-2 align-items-start">
          <FaTriangleExclamation aria-hidden className="mt-1 flex-shrink-0" />
          <span>
            {failing.length === 1 ? '1 service is failing' : `${failing.length} services are failing`}:{' '}
            {failing.map((r) => r.name).join(', ')}.
          </span>
        </Alert>
      )}
      {!data ? (
        <Spinner animation="border" aria-label="Loading" />
      ) : (
        <>
          <KickBotCard data={data} />
          <KickEventsCard data={data} />
          <KickChatCard chat={data.kickChat} />
          <Suspense fallback={null}>
            <DiscordRolesCard />
          </Suspense>
          <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Integrations">
            <Table hover className="kb-integrations-table mb-0" aria-label="Integrations">
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col">Mode</th>
                  <th scope="col">State</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Last failure</th>
                  <th scope="col">Next attempt</th>
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group}>
                  <tr className="kb-int-group">
                    <th scope="rowgroup" colSpan={6}>
                      {group}
                    </th>
                  </tr>
                  {data.rows
                    .filter((r) => r.group === group)
                    .map((r) => (
                      <Row key={r.id} row={r} />
                    ))}
                </tbody>
              ))}
            </Table>
          </div>
        </>
      )}
    </section>
  );
}
