/** The admin's form to open a prediction: question, 2–10 answers (text, colour), auto-lock, limits. */
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { MAX_ANSWERS, MIN_ANSWERS } from '@kickback/common/games/prediction';
import { openPrediction } from './api';

const PALETTE = [
  '#3b82f6',
  '#ec4899',
  '#22c55e',
  '#f59e0b',
  '#a855f7',
  '#14b8a6',
  '#ef4444',
  '#eab308',
  '#6366f1',
  '#f97316',
];

interface AnswerDraft {
  text: string;
  color: string;
}

const blank = (i: number): AnswerDraft => ({ text: '', color: PALETTE[i % PALETTE.length]! });

export function OpenPredictionForm({ disabled, onOpened }: { disabled: boolean; onOpened(): void }) {
  const [question, setQuestion] = useState('');
  const [answers, setAnswers] = useState<AnswerDraft[]>([blank(0), blank(1)]);
  const [lockInMinutes, setLockInMinutes] = useState('');
  const [minBet, setMinBet] = useState('');
  const [maxBet, setMaxBet] = useState('');
  const [busy, setBusy] = useState(false);

  const change = (i: number, patch: Partial<AnswerDraft>) =>
    setAnswers((list) => list.map((a, k) => (k === i ? { ...a, ...patch } : a)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const minutes = Number(lockInMinutes);
      await openPrediction({
        question,
        answers,
        autoLockAt: lockInMinutes === '' ? null : new Date(Date.now() + minutes * 60_000).toISOString(),
        minBet: minBet === '' ? null : Number(minBet),
        maxBet: maxBet === '' ? null : Number(maxBet),
      });
      toast.success('Prediction opened.');
      setQuestion('');
      setAnswers([blank(0), blank(1)]);
      setLockInMinutes('');
      onOpened();
    } catch {
      // the API wrapper showed why; the form keeps what was typed
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form className="kb-card" onSubmit={(e) => void submit(e)} aria-label="Open a prediction">
      <h2 className="h5">Open a prediction</h2>
      <Form.Group className="mb-3" controlId="pred-question">
        <Form.Label>Question</Form.Label>
        <Form.Control value={question} maxLength={200} onChange={(e) => setQuestion(e.target.value)} required />
      </Form.Group>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Answers</legend>
        {answers.map((a, i) => (
          <div className="d-flex gap-2 mb-2 align-items-center" key={i}>
            <span className="kb-pred-option" style={{ background: a.color }} aria-hidden>
              {i + 1}
            </span>
            <Form.Control
              aria-label={`Answer ${i + 1}`}
              value={a.text}
              maxLength={60}
              onChange={(e) => change(i, { text: e.target.value })}
              required
            />
            <Form.Control
              type="color"
              aria-label={`Colour of answer ${i + 1}`}
              value={a.color}
              onChange={(e) => change(i, { color: e.target.value })}
              className="form-control-color"
            />
            <Button
              variant="outline-secondary"
              size="sm"
              aria-label={`Remove answer ${i + 1}`}
              disabled={answers.length <= MIN_ANSWERS}
              onClick={() => setAnswers((list) => list.filter((_, k) => k !== i))}
            >
              ×
            </Button>
          </div>
        ))}
        <Button
          variant="outline-light"
          size="sm"
          disabled={answers.length >= MAX_ANSWERS}
          onClick={() => setAnswers((list) => [...list, blank(list.length)])}
        >
          Add answer
        </Button>
      </fieldset>
      <div className="row g-3 mb-3">
        <Form.Group className="col-sm-4" controlId="pred-lock">
          <Form.Label>Auto-lock in (minutes)</Form.Label>
          <Form.Control
            type="number"
            min={0.1}
            step="any"
            value={lockInMinutes}
            onChange={(e) => setLockInMinutes(e.target.value)}
          />
          <Form.Text>Empty: lock by hand.</Form.Text>
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="pred-min">
          <Form.Label>Minimum bet</Form.Label>
          <Form.Control
            type="number"
            min={0.01}
            step="any"
            value={minBet}
            onChange={(e) => setMinBet(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="pred-max">
          <Form.Label>Maximum stake</Form.Label>
          <Form.Control
            type="number"
            min={0.01}
            step="any"
            value={maxBet}
            onChange={(e) => setMaxBet(e.target.value)}
          />
        </Form.Group>
      </div>
      <Button type="submit" disabled={busy || disabled}>
        Open prediction
      </Button>
      {disabled && <Form.Text className="ms-3">Resolve or cancel the live prediction first.</Form.Text>}
    </Form>
  );
}
