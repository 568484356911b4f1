/**
 * Admin → Integrations, Kick events: a feature whose scopes the bot token lacks (with Reconnect),
 * and per event type whether it is subscribed, its last delivery and its deliveries in the last
 * 24 hours — Kick has been seen to stop sending some events silently, and this is where it shows.
 */
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { FaLink } from 'react-icons/fa6';
import type { IntegrationsOverview, KickEventStat } from '@kickback/common/http/integrations';
import { useConnectKickBot } from './api';

function when(iso: string | null): string {
  if (!iso) return 'never';
  return new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Yes only once Kick confirmed the subscriptions; while subscribing fails, that is what it says. */
function Subscribed({ event }: { event: KickEventStat }) {
  if (!event.subscribed) return <Badge bg="secondary">No (feature off)</Badge>;
  if (event.subscription === 'ok') return <Badge bg="success">Yes</Badge>;
  if (event.subscription === 'failing') return <Badge bg="danger">No (subscribing fails)</Badge>;
  if (event.subscription === 'waiting') return <Badge bg="warning">Not confirmed yet</Badge>;
  return <Badge bg="secondary">No (no Kick app)</Badge>;
}

export function KickEventsCard({ data }: { data: IntegrationsOverview }) {
  const connect = useConnectKickBot();
  const lacking = data.kickFeatures.filter((f) => f.missing.length > 0);
  const reconnect = () => connect.mutate({}, { onSuccess: ({ url }) => window.location.assign(url) });
  return (
    <section className="kb-card mb-4" aria-labelledby="kb-kick-events-title">
      <h2 id="kb-kick-events-title" className="h5">
        Kick events
      </h2>
      {lacking.length > 0 && (
        <Alert
          variant="warning"
          className="d-flex flex-wrap align-items-center gap-2"
          data-testid="kick-missing-scopes"
        >
          <span className="me-auto">
            {lacking.map((f) => (
              <span key={f.id} className="d-block">
                <strong>{f.label}</strong> needs {f.missing.map((s) => `“${s}”`).join(', ')}, which the Kick bot token
                lacks.
              </span>
            ))}
          </span>
          <Button variant="primary" size="sm" disabled={connect.isPending || connect.isSuccess} onClick={reconnect}>
            <FaLink aria-hidden className="me-2" />
            Reconnect
          </Button>
        </Alert>
      )}
      <p className="small text-body-secondary">
        Deliveries per event type. An event that is subscribed but has not arrived for a long time while the stream was
        busy may be one Kick stopped sending: check the subscription and Kick&apos;s status.
      </p>
      <div className="table-responsive" tabIndex={0} role="region" aria-label="Kick event deliveries">
        <Table size="sm" className="mb-0" aria-label="Kick event deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Subscribed</th>
              <th scope="col">Last delivery</th>
              <th scope="col" className="text-end">
                Last 24 h
              </th>
            </tr>
          </thead>
          <tbody>
            {data.kickEvents.map((e) => (
              <tr key={e.type} data-event={e.type}>
                <td>
                  <code>{e.type}</code>
                </td>
                <td>
                  <Subscribed event={e} />
                </td>
                <td className="text-nowrap">{when(e.lastDeliveryAt)}</td>
                <td className="text-end" data-testid={`count-${e.type}`}>
                  {e.last24h.toLocaleString()}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </section>
  );
}
