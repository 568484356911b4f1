/**
 * Chat Simulator → Send a Kick event: follow, sub, renewal, gifted subs (an anonymous gifter too),
 * KICKs, a ban (a timeout of N minutes or permanent), a channel-reward redemption, the stream going
 * on or off, a title change. Each is built in Kick's shape, signed like Kick and delivered through
 * the real webhook, so the site reacts exactly as it would to Kick.
 */
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { FaBolt } from 'react-icons/fa6';
import { SIMULATED_BAN_MAX_MINUTES, type ChatSimulateEventBody } from '@kickback/common/http/chat';
import { useSimulateEvent } from './api';

type Kind = ChatSimulateEventBody['kind'];

const kinds: Array<{ kind: Kind; label: string }> = [
  { kind: 'follow', label: 'Follow' },
  { kind: 'subscription', label: 'New subscription' },
  { kind: 'renewal', label: 'Subscription renewal' },
  { kind: 'gift', label: 'Gifted subs' },
  { kind: 'kicks', label: 'KICKs' },
  { kind: 'ban', label: 'Ban or timeout' },
  { kind: 'redemption', label: 'Channel reward redemption' },
  { kind: 'stream-on', label: 'Stream goes live' },
  { kind: 'stream-off', label: 'Stream ends' },
  { kind: 'title', label: 'Title change' },
];

const withUser: readonly Kind[] = ['follow', 'subscription', 'renewal', 'kicks', 'ban', 'redemption'];

export function SimulateEventsCard() {
  const simulate = useSimulateEvent();
  const [kind, setKind] = useState<Kind>('follow');
  const [username, setUsername] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const [giftees, setGiftees] = useState('');
  const [amount, setAmount] = useState('100');
  const [permanent, setPermanent] = useState(false);
  const [minutes, setMinutes] = useState('10');
  const [reason, setReason] = useState('');
  const [rewardTitle, setRewardTitle] = useState('Hydrate');
  const [cost, setCost] = useState('500');
  const [title, setTitle] = useState('');

  const body = (): ChatSimulateEventBody => {
    const name = username.trim();
    switch (kind) {
      case 'gift':
        return {
          kind,
          gifter: anonymous ? null : name,
          giftees: giftees
            .split(/[\s,]+/)
            .map((g) => g.trim())
            .filter(Boolean),
        };
      case 'kicks':
        return { kind, username: name, amount: Number(amount) };
      case 'ban':
        return { kind, username: name, minutes: permanent ? null : Number(minutes), reason };
      case 'redemption':
        return { kind, username: name, rewardTitle, cost: Number(cost) };
      case 'title':
        return { kind, title };
      case 'stream-on':
      case 'stream-off':
        return { kind };
      default:
        return { kind, username: name };
    }
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await simulate.mutateAsync({ body: body() });
      if (result.status === 200) toast.success(`Sent ${result.type}.`);
      else toast.error(`The webhook refused ${result.type} (HTTP ${result.status}).`);
    } catch {
      // shown by the API wrapper
    }
  };

  const needsUser = withUser.includes(kind) || (kind === 'gift' && !anonymous);
  return (
    <div className="kb-card mt-4">
      <h2 className="h6 mb-3">Send a Kick event</h2>
      <Form onSubmit={(e) => void send(e)} aria-label="Send a Kick event">
        <Form.Group controlId="kb-sim-event-kind" className="mb-3">
          <Form.Label>Event</Form.Label>
          <Form.Select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {kind === 'gift' && (
          <Form.Check
            type="switch"
            id="kb-sim-event-anonymous"
            className="mb-3"
            label="Anonymous gifter"
            checked={anonymous}
            onChange={(e) => setAnonymous(e.target.checked)}
          />
        )}
        {needsUser && (
          <Form.Group controlId="kb-sim-event-user" className="mb-3">
            <Form.Label>{kind === 'gift' ? 'Gifter (Kick name)' : 'Viewer (Kick name)'}</Form.Label>
            <Form.Control
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              maxLength={25}
              autoComplete="off"
            />
          </Form.Group>
        )}
        {kind === 'gift' && (
          <Form.Group controlId="kb-sim-event-giftees" className="mb-3">
            <Form.Label>Giftees</Form.Label>
            <Form.Control value={giftees} onChange={(e) => setGiftees(e.target.value)} placeholder="lucky1, lucky2" />
            <Form.Text>Kick usernames, separated by commas.</Form.Text>
          </Form.Group>
        )}
        {kind === 'kicks' && (
          <Form.Group controlId="kb-sim-event-amount" className="mb-3">
            <Form.Label>KICKs</Form.Label>
            <Form.Control type="number" min={1} value={amount} onChange={(e) => setAmount(e.target.value)} />
          </Form.Group>
        )}
        {kind === 'ban' && (
          <>
            <Form.Check
              type="switch"
              id="kb-sim-event-permanent"
              className="mb-3"
              label="Permanent ban"
              checked={permanent}
              onChange={(e) => setPermanent(e.target.checked)}
            />
            {!permanent && (
              <Form.Group controlId="kb-sim-event-minutes" className="mb-3">
                <Form.Label>Timeout (minutes)</Form.Label>
                <Form.Control
                  type="number"
                  min={1}
                  max={SIMULATED_BAN_MAX_MINUTES}
                  value={minutes}
                  onChange={(e) => setMinutes(e.target.value)}
                />
              </Form.Group>
            )}
            <Form.Group controlId="kb-sim-event-reason" className="mb-3">
              <Form.Label>Reason</Form.Label>
              <Form.Control value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />
            </Form.Group>
          </>
        )}
        {kind === 'redemption' && (
          <>
            <Form.Group controlId="kb-sim-event-reward" className="mb-3">
              <Form.Label>Reward</Form.Label>
              <Form.Control value={rewardTitle} onChange={(e) => setRewardTitle(e.target.value)} maxLength={50} />
            </Form.Group>
            <Form.Group controlId="kb-sim-event-cost" className="mb-3">
              <Form.Label>Cost (channel points)</Form.Label>
              <Form.Control type="number" min={1} value={cost} onChange={(e) => setCost(e.target.value)} />
            </Form.Group>
          </>
        )}
        {kind === 'title' && (
          <Form.Group controlId="kb-sim-event-title" className="mb-3">
            <Form.Label>Stream title</Form.Label>
            <Form.Control value={title} onChange={(e) => setTitle(e.target.value)} maxLength={140} />
          </Form.Group>
        )}
        <Button type="submit" variant="primary" className="w-100" disabled={simulate.isPending}>
          <FaBolt aria-hidden className="me-2" />
          Send event
        </Button>
      </Form>
    </div>
  );
}
