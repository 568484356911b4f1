/**
 * `/overlay/alerts`: the support alerts OBS browser source (1920×1080, sized in units of the
 * viewport's height), public, read-only and transparent. Alerts arrive live on the `/SupportAlerts`
 * hub and are shown one at a time, each for a few seconds (`?seconds=` changes it), in the order
 * they came. After a reconnect, the alerts missed meanwhile are read and queued; opening the page
 * does not replay older ones.
 */
import { useEffect, useRef, useState } from 'react';
import type { SupportAlert, supportAlertsHub } from '@kickback/common/hubs/support-alerts';
import { HubConnection, hubRef } from '../../lib/hub';
import './alerts-overlay.css';

const hub = hubRef<typeof supportAlertsHub>('/SupportAlerts');
const DEFAULT_SECONDS = 6;

function showSeconds(): number {
  const n = Number(new URLSearchParams(window.location.search).get('seconds'));
  return Number.isFinite(n) && n >= 1 && n <= 60 ? n : DEFAULT_SECONDS;
}

function useAlertQueue() {
  const [queue, setQueue] = useState<SupportAlert[]>([]);
  const [connected, setConnected] = useState(false);
  const lastId = useRef<number | null>(null);
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    const add = (alerts: SupportAlert[]) => {
      const fresh = alerts.filter((a) => lastId.current === null || a.id > lastId.current);
      if (fresh.length === 0) return;
      lastId.current = Math.max(...fresh.map((a) => a.id));
      setQueue((q) => [...q, ...fresh]);
    };
    const connection: HubConnection<typeof supportAlertsHub> = new HubConnection(
      hub,
      {},
      {
        onStatus: (status) => setConnected(status === 'connected'),
        onConnected: () =>
          void connection
            .call('GetRecentAlerts')
            .then((recent) => {
              if (lastId.current === null) lastId.current = Math.max(0, ...recent.map((a) => a.id));
              else add(recent);
            })
            .catch(() => undefined),
      },
    );
    const off = connection.on('ReceiveAlert', (alert) => add([alert]));
    connection.start();
    return () => {
      off();
      connection.stop();
      document.documentElement.classList.remove('kb-transparent');
    };
  }, []);
  const current = queue[0] ?? null;
  useEffect(() => {
    if (!current) return;
    const id = setTimeout(() => setQueue((q) => q.slice(1)), showSeconds() * 1000);
    return () => clearTimeout(id);
  }, [current]);
  return { current, connected };
}

export default function AlertsOverlayPage() {
  const { current, connected } = useAlertQueue();
  return (
    <main className="kba-stage" aria-label="Support alerts overlay" data-connected={connected}>
      <h1 className="kb-visually-hidden">Support alerts</h1>
      <div aria-live="polite">
        {current && (
          <div key={current.id} className={`kba-alert kba-${current.kind}`} role="status">
            <p className="kba-name">{current.kickUsername}</p>
            <p className="kba-text">{current.text}</p>
            {current.points > 0 && <p className="kba-points">+{current.points.toLocaleString('en-US')} points</p>}
          </div>
        )}
      </div>
    </main>
  );
}
