/**
 * Admin → Battles: create a battle, then run the selected one live — close registration (the
 * bracket is drawn at once), set an entrant's slot, record the two bonus buys of the match in play,
 * replay or void a match with a reason, cancel the battle. The server checks every action (a match
 * not in play, bad amounts) and the page shows its answer.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { adminBattleEndpoints, battleEndpoints, battleMessages } from '@kickback/common/http/battles';
import type { BattleMatch, BattleSide, BattleState } from '@kickback/common/hubs/battle';
import { EmptyRow } from '../../components/ui/empty-row';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { BattleForm } from './battle-form';
import { Bracket, CurrentMatch, statusText } from './bracket';
import { useBattle } from './use-battle';
import './battles.css';

const nameOf = (side: BattleSide) => (side.kind === 'entrant' ? side.username : side.kind === 'bye' ? 'Bye' : '?');

function ResultForm({ state, match }: { state: BattleState; match: BattleMatch }) {
  const [v, setV] = useState({ costA: '', winA: '', costB: '', winB: '' });
  const record = useEndpointMutation(adminBattleEndpoints.result);
  const input = (key: keyof typeof v, label: string) => (
    <Form.Group className="col-6 col-md-3" controlId={`result-${key}`}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <Form.Control
        inputMode="decimal"
        value={v[key]}
        onChange={(e) => setV((old) => ({ ...old, [key]: e.target.value }))}
      />
    </Form.Group>
  );
  const submit = async () => {
    try {
      await record.mutateAsync({
        params: { id: state.id, no: match.no },
        body: { a: { cost: v.costA, win: v.winA }, b: { cost: v.costB, win: v.winB } },
      });
      toast.success(battleMessages.recorded);
      setV({ costA: '', winA: '', costB: '', winB: '' });
    } catch {
      // The API wrapper showed the server's message.
    }
  };
  return (
    <Form
      className="kb-card p-3 mb-3"
      aria-label="Record the match in play"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 className="h6">
        Match {match.no + 1}: {nameOf(match.a)} against {nameOf(match.b)}
      </h3>
      <div className="row g-2">
        {input('costA', `${nameOf(match.a)} cost`)}
        {input('winA', `${nameOf(match.a)} win`)}
        {input('costB', `${nameOf(match.b)} cost`)}
        {input('winB', `${nameOf(match.b)} win`)}
      </div>
      <Button type="submit" className="mt-2" disabled={record.isPending}>
        Record result
      </Button>
    </Form>
  );
}

function ManageBattle({ id }: { id: string }) {
  const { state } = useBattle(id);
  const [reason, setReason] = useState('');
  const [slot, setSlot] = useState({ userId: '', slot: '' });
  const invalidates = [adminBattleEndpoints.list, battleEndpoints.list];
  const close = useEndpointMutation(adminBattleEndpoints.close, { invalidates });
  const draw = useEndpointMutation(adminBattleEndpoints.draw, { invalidates });
  const cancel = useEndpointMutation(adminBattleEndpoints.cancel, { invalidates });
  const replay = useEndpointMutation(adminBattleEndpoints.replay);
  const voidIt = useEndpointMutation(adminBattleEndpoints.void, { invalidates });
  const setEntrantSlot = useEndpointMutation(adminBattleEndpoints.slot);
  if (!state) return <p>Connecting…</p>;
  const done = (message: string) => () => toast.success(message);
  const ignore = () => undefined; // the API wrapper showed the server's message
  const current = state.matches.find((m) => m.no === state.currentMatchNo);
  const recorded = state.matches.filter((m) => m.state === 'played' || m.state === 'void');
  const over = state.status === 'finished' || state.status === 'cancelled';
  return (
    <section aria-label={`Run ${state.title}`} className="mb-4">
      <h2 className="h4">
        <Link to={`/battle/${id}`}>{state.title}</Link> ·{' '}
        <span data-testid="admin-battle-status">{statusText[state.status]}</span>
      </h2>
      <p className="mb-2">{state.entrants.length} entered.</p>
      <div className="d-flex flex-wrap gap-2 mb-3">
        {state.status === 'registration' && (
          <Button onClick={() => void close.mutateAsync({ params: { id } }).then(done(battleMessages.closed), ignore)}>
            Close registration and draw
          </Button>
        )}
        {state.status === 'closed' && (
          <Button onClick={() => void draw.mutateAsync({ params: { id } }).then(done(battleMessages.drawn), ignore)}>
            Draw the bracket
          </Button>
        )}
      </div>
      {!over && (
        <Form.Group className="mb-3" controlId="battle-reason" style={{ maxWidth: '32rem' }}>
          <Form.Label>Reason (for a replay, a void or cancelling)</Form.Label>
          <Form.Control value={reason} maxLength={300} onChange={(e) => setReason(e.target.value)} />
        </Form.Group>
      )}
      {!over && state.entrants.length > 0 && (
        <Form
          className="row g-2 align-items-end mb-3"
          aria-label="Set an entrant's slot"
          onSubmit={(e) => {
            e.preventDefault();
            void setEntrantSlot
              .mutateAsync({ params: { id }, body: slot })
              .then(done(battleMessages.slotSaved), ignore);
          }}
        >
          <Form.Group className="col-sm-4" controlId="battle-slot-entrant">
            <Form.Label>Entrant</Form.Label>
            <Form.Select value={slot.userId} onChange={(e) => setSlot((s) => ({ ...s, userId: e.target.value }))}>
              <option value="">Choose…</option>
              {state.entrants.map((e) => (
                <option key={e.userId} value={e.userId}>
                  {e.username}
                  {e.slot ? ` (${e.slot})` : ''}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group className="col-sm-5" controlId="battle-slot-name">
            <Form.Label>Their slot</Form.Label>
            <Form.Control
              value={slot.slot}
              maxLength={60}
              onChange={(e) => setSlot((s) => ({ ...s, slot: e.target.value }))}
            />
          </Form.Group>
          <div className="col-sm-3">
            <Button type="submit" variant="outline-light">
              Set slot
            </Button>
          </div>
        </Form>
      )}
      {current && (
        <>
          <CurrentMatch state={state} />
          <ResultForm key={current.no} state={state} match={current} />
          <Button
            variant="outline-warning"
            className="mb-3"
            onClick={() =>
              void voidIt
                .mutateAsync({ params: { id, no: current.no }, body: { reason } })
                .then(done(battleMessages.voided), ignore)
            }
          >
            Void the match in play
          </Button>
        </>
      )}
      {recorded.length > 0 && (
        <div className="table-responsive kb-card p-0 mb-3" tabIndex={0} role="region" aria-label="Recorded matches">
          <Table variant="dark" size="sm" className="mb-0 align-middle">
            <thead>
              <tr>
                <th>Match</th>
                <th>Result</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {recorded.map((m) => (
                <tr key={m.no}>
                  <td>
                    {m.no + 1}: {nameOf(m.a)} – {nameOf(m.b)}
                  </td>
                  <td className="small">
                    {m.result ? `${m.result.a.multiplier}× – ${m.result.b.multiplier}×` : `Void: ${m.voidReason ?? ''}`}
                  </td>
                  <td className="text-nowrap">
                    <Button
                      size="sm"
                      variant="outline-light"
                      className="me-1"
                      disabled={over}
                      aria-label={`Replay match ${m.no + 1}`}
                      onClick={() =>
                        void replay
                          .mutateAsync({ params: { id, no: m.no }, body: { reason } })
                          .then(done(battleMessages.replayed), ignore)
                      }
                    >
                      Replay
                    </Button>
                    {m.state === 'played' && (
                      <Button
                        size="sm"
                        variant="outline-warning"
                        disabled={over}
                        aria-label={`Void match ${m.no + 1}`}
                        onClick={() =>
                          void voidIt
                            .mutateAsync({ params: { id, no: m.no }, body: { reason } })
                            .then(done(battleMessages.voided), ignore)
                        }
                      >
                        Void
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {state.matches.length > 0 && <Bracket state={state} />}
      {!over && (
        <Button
          variant="outline-danger"
          className="mt-3"
          onClick={() =>
            void cancel.mutateAsync({ params: { id }, body: { reason } }).then(done(battleMessages.cancelled), ignore)
          }
        >
          Cancel the battle
        </Button>
      )}
    </section>
  );
}

export default function AdminBattlesPage() {
  const list = useEndpointQuery(adminBattleEndpoints.list);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <section className="container-xl py-4">
      <h1 className="h2">Battles</h1>
      <BattleForm onCreated={setSelected} />
      {selected && <ManageBattle key={selected} id={selected} />}
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Battles">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="battles-table">
          <thead>
            <tr>
              <th>Battle</th>
              <th>State</th>
              <th className="text-end">Entrants</th>
              <th>Winner</th>
              <th>Run</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((b) => (
              <tr key={b.id}>
                <td>
                  <Link to={`/battle/${b.id}`}>{b.title}</Link>
                </td>
                <td className="small">{statusText[b.status]}</td>
                <td className="text-end">{b.entrants}</td>
                <td>{b.winner ?? ''}</td>
                <td>
                  <Button
                    size="sm"
                    variant="outline-light"
                    aria-label={`Run ${b.title}`}
                    onClick={() => setSelected(b.id)}
                  >
                    Run
                  </Button>
                </td>
              </tr>
            ))}
            {list.data && list.data.length === 0 && <EmptyRow columns={5}>No battles yet.</EmptyRow>}
          </tbody>
        </Table>
      </div>
    </section>
  );
}
