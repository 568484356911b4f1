/**
 * Admin → Support rewards, "Stream streak bonuses" (docs/features/stream-streaks.md#bonuses):
 * points paid once when a linked viewer's streak of streams reaches a length.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { FaPlus, FaTrashCan } from 'react-icons/fa6';
import { adminStreakEndpoints, type StreakBonus } from '@kickback/common/http/stream-streaks';
import { ApiError } from '../../lib/api';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

type Row = { length: string; points: string };

function BonusForm({ initial }: { initial: StreakBonus[] }) {
  const [rows, setRows] = useState<Row[]>(initial.map((b) => ({ length: String(b.length), points: String(b.points) })));
  const [error, setError] = useState<string | null>(null);
  const save = useEndpointMutation(adminStreakEndpoints.saveBonuses, { invalidates: [adminStreakEndpoints.bonuses] });
  const set = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const bonuses = rows.map((r) => ({ length: Number(r.length.trim()), points: Number(r.points.trim()) }));
    if (
      rows.some((r) => r.length.trim() === '' || r.points.trim() === '') ||
      bonuses.some((b) => !Number.isFinite(b.length) || !Number.isFinite(b.points))
    ) {
      setError('Enter each streak length and its points as numbers.');
      return;
    }
    try {
      await save.mutateAsync({ body: { bonuses } });
      toast.success('Stream streak bonuses saved.');
    } catch (err) {
      if (err instanceof ApiError) setError(err.fields.map((f) => f.message).join(' ') || err.serverMessage);
    }
  };
  return (
    <Form onSubmit={(e) => void submit(e)} noValidate aria-label="Stream streak bonuses">
      {rows.length === 0 && <p className="text-body-secondary">No bonuses: streaks are shown but pay nothing.</p>}
      {rows.map((r, i) => (
        <div className="d-flex flex-wrap align-items-end gap-2 mb-2" key={i}>
          <Form.Group controlId={`streak-length-${i}`}>
            <Form.Label>Streams in a row</Form.Label>
            <Form.Control inputMode="numeric" value={r.length} onChange={(e) => set(i, { length: e.target.value })} />
          </Form.Group>
          <Form.Group controlId={`streak-points-${i}`}>
            <Form.Label>Bonus points</Form.Label>
            <Form.Control inputMode="decimal" value={r.points} onChange={(e) => set(i, { points: e.target.value })} />
          </Form.Group>
          <Button
            variant="outline-danger"
            aria-label={`Remove the bonus for row ${i + 1}`}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
          >
            <FaTrashCan aria-hidden />
          </Button>
        </div>
      ))}
      {error && (
        <p className="text-danger mb-2" role="alert">
          {error}
        </p>
      )}
      <div className="d-flex gap-2 mt-2">
        <Button variant="outline-secondary" onClick={() => setRows([...rows, { length: '', points: '' }])}>
          <FaPlus aria-hidden className="me-1" />
          Add a bonus
        </Button>
        <Button type="submit" disabled={save.isPending}>
          Save bonuses
        </Button>
      </div>
    </Form>
  );
}

export function StreakBonuses() {
  const { data } = useEndpointQuery(adminStreakEndpoints.bonuses);
  if (!data) return null;
  return <BonusForm key={JSON.stringify(data.bonuses)} initial={data.bonuses} />;
}
