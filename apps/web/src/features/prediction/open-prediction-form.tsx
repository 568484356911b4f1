/**
 * The admin's form to open a prediction: question, 2–10 answers (text, colour), auto-lock, limits.
 * Checked by the server's rules (openPredictionForm) as the admin types; the server's field
 * errors land on their fields.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useFieldArray } from 'react-hook-form';
import { toast } from 'react-toastify';
import { MAX_ANSWERS, MIN_ANSWERS } from '@kickback/common/games/prediction';
import { openPredictionForm, predictionLimits } from '@kickback/common/http/prediction';
import { CharCounter, FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useOpenPrediction } from './api';

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

/** The auto-lock instant: `minutes` from the moment the form is sent. */
function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

const blank = (i: number) => ({ text: '', color: PALETTE[i % PALETTE.length]! });
const empty = { question: '', answers: [blank(0), blank(1)], lockInMinutes: '', minBet: '', maxBet: '' };

export function OpenPredictionForm({ disabled, onOpened }: { disabled: boolean; onOpened?(): void }) {
  const open = useOpenPrediction();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useZodForm(openPredictionForm, { defaultValues: empty });
  const answers = useFieldArray({ control, name: 'answers' });
  const question = watch('question') ?? '';

  const submit = handleSubmit(async ({ question, answers: list, lockInMinutes, minBet, maxBet }) => {
    try {
      await open.mutateAsync({
        body: {
          question,
          answers: list,
          autoLockAt: lockInMinutes === null ? null : minutesFromNow(lockInMinutes),
          minBet,
          maxBet,
        },
      });
      toast.success('Prediction opened.');
      reset(empty);
      onOpened?.();
    } catch (err) {
      // The API wrapper showed why; the form keeps what was typed, and a refused field is marked.
      const fields = ['question', 'minBet', 'maxBet', 'answers', ...answers.fields.map((_, i) => `answers.${i}.text`)];
      setServerErrors(err, setError, fields);
    }
  });
  const invalid = (message: string | undefined, id: string) => ({
    isInvalid: Boolean(message),
    'aria-invalid': Boolean(message),
    'aria-describedby': id,
  });

  return (
    <Form className="kb-card" onSubmit={(e) => void submit(e)} aria-label="Open a prediction" noValidate>
      <h2 className="h5">Open a prediction</h2>
      <Form.Group className="mb-3" controlId="pred-question">
        <Form.Label>Question</Form.Label>
        <Form.Control
          {...register('question')}
          {...invalid(errors.question?.message, 'pred-question-error pred-question-count')}
          maxLength={predictionLimits.question}
          required
        />
        <FieldError id="pred-question-error" message={errors.question?.message} />
        <CharCounter id="pred-question-count" length={String(question).length} max={predictionLimits.question} />
      </Form.Group>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Answers</legend>
        {errors.answers?.message && (
          <p className="small text-danger" role="alert">
            {errors.answers.message}
          </p>
        )}
        {answers.fields.map((a, i) => {
          const message = errors.answers?.[i]?.text?.message ?? errors.answers?.[i]?.color?.message;
          return (
            <div className="mb-2" key={a.id}>
              <div className="d-flex gap-2 align-items-center">
                <span className="kb-pred-option" style={{ background: watch(`answers.${i}.color`) }} aria-hidden>
                  {i + 1}
                </span>
                <Form.Control
                  aria-label={`Answer ${i + 1}`}
                  {...register(`answers.${i}.text`)}
                  {...invalid(message, `pred-answer-${i}-error`)}
                  maxLength={predictionLimits.answer}
                  required
                />
                <Form.Control
                  type="color"
                  aria-label={`Colour of answer ${i + 1}`}
                  {...register(`answers.${i}.color`)}
                  className="form-control-color"
                />
                <Button
                  variant="outline-secondary"
                  size="sm"
                  aria-label={`Remove answer ${i + 1}`}
                  disabled={answers.fields.length <= MIN_ANSWERS}
                  onClick={() => answers.remove(i)}
                >
                  ×
                </Button>
              </div>
              {message && (
                <div className="invalid-feedback d-block" id={`pred-answer-${i}-error`} role="alert">
                  {message}
                </div>
              )}
            </div>
          );
        })}
        <Button
          variant="outline-light"
          size="sm"
          disabled={answers.fields.length >= MAX_ANSWERS}
          onClick={() => answers.append(blank(answers.fields.length))}
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
            {...register('lockInMinutes')}
            {...invalid(errors.lockInMinutes?.message, 'pred-lock-error')}
          />
          <FieldError id="pred-lock-error" message={errors.lockInMinutes?.message} />
          <Form.Text>Empty: lock by hand.</Form.Text>
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="pred-min">
          <Form.Label>Minimum bet</Form.Label>
          <Form.Control
            type="number"
            min={0.01}
            max={100_000_000}
            step={0.01}
            {...register('minBet')}
            {...invalid(errors.minBet?.message, 'pred-min-error')}
          />
          <FieldError id="pred-min-error" message={errors.minBet?.message} />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="pred-max">
          <Form.Label>Maximum stake</Form.Label>
          <Form.Control
            type="number"
            min={0.01}
            max={100_000_000}
            step={0.01}
            {...register('maxBet')}
            {...invalid(errors.maxBet?.message, 'pred-max-error')}
          />
          <FieldError id="pred-max-error" message={errors.maxBet?.message} />
        </Form.Group>
      </div>
      <Button type="submit" disabled={isSubmitting || disabled}>
        Open prediction
      </Button>
      {disabled && <Form.Text className="ms-3">Resolve or cancel the live prediction first.</Form.Text>}
    </Form>
  );
}
