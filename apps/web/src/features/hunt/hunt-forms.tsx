/** The admin's forms: start a hunt, and add a bonus (Enter adds it and returns to the slot field). */
import { useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { huntEndpoints } from '@kickback/common/http/hunt';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { useEndpointMutation } from '../../lib/query';

const num = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function StartHuntForm({ onStarted }: { onStarted(view: HuntView): void }) {
  const [name, setName] = useState('');
  const [startCost, setStartCost] = useState('');
  const [guessPrize, setGuessPrize] = useState('0');
  // Callbacks on the mutation itself: the form is replaced by the hunt as soon as the live state arrives.
  const start = useEndpointMutation(huntEndpoints.start, {
    invalidates: [huntEndpoints.list],
    onSuccess: (view) => {
      toast.success('Hunt started: guessing is open.');
      onStarted(view);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate({ body: { name, startCost: num(startCost), guessPrize: num(guessPrize) } });
  };
  return (
    <Form className="kb-card" onSubmit={submit} aria-label="Start a hunt">
      <h2 className="h5">Start a hunt</h2>
      <div className="row g-2 align-items-end">
        <Form.Group className="col-md-5" controlId="hunt-name">
          <Form.Label>Name</Form.Label>
          <Form.Control value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required autoFocus />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="hunt-start-cost">
          <Form.Label>Start cost ($)</Form.Label>
          <Form.Control inputMode="decimal" value={startCost} onChange={(e) => setStartCost(e.target.value)} required />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="hunt-guess-prize">
          <Form.Label>Guess prize (points)</Form.Label>
          <Form.Control inputMode="decimal" value={guessPrize} onChange={(e) => setGuessPrize(e.target.value)} />
        </Form.Group>
        <div className="col-md-2">
          <Button type="submit" className="w-100" disabled={start.isPending}>
            Start
          </Button>
        </div>
      </div>
    </Form>
  );
}

export function AddBonusForm({ hunt, onChanged }: { hunt: HuntView; onChanged(view: HuntView): void }) {
  const [slot, setSlot] = useState('');
  const [provider, setProvider] = useState('');
  const [bet, setBet] = useState('');
  const [cost, setCost] = useState('');
  const slotRef = useRef<HTMLInputElement>(null);
  const add = useEndpointMutation(huntEndpoints.addBonus);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      {
        params: { huntId: hunt.id },
        body: { slot, provider, bet: num(bet), cost: cost.trim() === '' ? 0 : num(cost) },
      },
      {
        onSuccess: (view) => {
          // Provider and bet often repeat: keep them; the next slot name is typed at once.
          setSlot('');
          setCost('');
          onChanged(view);
          slotRef.current?.focus();
        },
      },
    );
  };
  return (
    <Form className="kb-card mb-3" onSubmit={submit} aria-label="Add a bonus">
      <h2 className="h6">Add a bonus</h2>
      <div className="row g-2 align-items-end">
        <Form.Group className="col-md-4" controlId="bonus-slot">
          <Form.Label>Slot</Form.Label>
          <Form.Control ref={slotRef} value={slot} maxLength={80} onChange={(e) => setSlot(e.target.value)} required />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="bonus-provider">
          <Form.Label>Provider</Form.Label>
          <Form.Control value={provider} maxLength={60} onChange={(e) => setProvider(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="bonus-bet">
          <Form.Label>Bet ($)</Form.Label>
          <Form.Control inputMode="decimal" value={bet} onChange={(e) => setBet(e.target.value)} required />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="bonus-cost">
          <Form.Label>Own cost ($)</Form.Label>
          <Form.Control inputMode="decimal" value={cost} placeholder="0" onChange={(e) => setCost(e.target.value)} />
        </Form.Group>
        <div className="col-md-1">
          <Button type="submit" className="w-100" disabled={add.isPending}>
            Add
          </Button>
        </div>
      </div>
    </Form>
  );
}
