/**
 * Admin → Battles: the new battle form, checked as the admin types by packages/common's
 * battleInput (the server's own rule): title, bracket size, the entry rules, the registration
 * window and the prize (points through the ledger, or an item for Fulfilment).
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { bracketSizes } from '@kickback/common/games/battle';
import { adminBattleEndpoints, battleEndpoints, battleInput, battleMessages } from '@kickback/common/http/battles';
import { leaderboardSites } from '@kickback/common/http/leaderboards';
import type { z } from 'zod';
import { setServerErrors } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';

interface FormValues {
  title: string;
  size: string;
  siteId: string;
  minWager: string;
  subsOnly: boolean;
  registrationMinutes: string;
  prizeKind: 'points' | 'item';
  prizePoints: string;
  prizeItem: string;
}
type Output = z.output<typeof battleInput>;

const linkable = leaderboardSites.filter((s) => s.linkField !== null);

function toBody(v: FormValues) {
  return {
    title: v.title,
    size: v.size,
    siteId: v.siteId === '' ? null : Number(v.siteId),
    minWager: v.minWager.trim() === '' ? null : v.minWager,
    subsOnly: v.subsOnly,
    registrationMinutes: v.registrationMinutes,
    prize:
      v.prizeKind === 'points'
        ? { kind: 'points' as const, points: v.prizePoints }
        : { kind: 'item' as const, item: v.prizeItem },
  };
}

/** The schema's paths (`prize.points`) to the form's fields (`prizePoints`). */
const fieldOf = (path: string): keyof FormValues | null =>
  path === 'prize.points'
    ? 'prizePoints'
    : path === 'prize.item'
      ? 'prizeItem'
      : ((['title', 'size', 'siteId', 'minWager', 'registrationMinutes'] as const).find((f) => f === path) ?? null);

const check = zodResolver(battleInput);
const resolver: Resolver<FormValues, unknown, Output> = async (values, context, options) => {
  const result = (await check(toBody(values), context, options as never)) as {
    values: Output | Record<string, never>;
    errors: Record<string, { message?: string; points?: { message?: string }; item?: { message?: string } }>;
  };
  const errors: FieldErrors<FormValues> = {};
  for (const [key, error] of Object.entries(result.errors)) {
    if (key === 'prize') {
      if (error.points) errors.prizePoints = { type: 'zod', message: error.points.message };
      if (error.item) errors.prizeItem = { type: 'zod', message: error.item.message };
      continue;
    }
    const field = fieldOf(key);
    if (field) errors[field] = { type: 'zod', message: error.message };
  }
  return Object.keys(errors).length === 0 ? { values: result.values as Output, errors: {} } : { values: {}, errors };
};

export function BattleForm({ onCreated }: { onCreated(id: string): void }) {
  const form = useForm<FormValues, unknown, Output>({
    resolver,
    mode: 'onChange',
    defaultValues: {
      title: '',
      size: '8',
      siteId: '',
      minWager: '',
      subsOnly: false,
      registrationMinutes: '10',
      prizeKind: 'points',
      prizePoints: '',
      prizeItem: '',
    },
  });
  const kind = useWatch({ control: form.control, name: 'prizeKind' });
  const create = useEndpointMutation(adminBattleEndpoints.create, {
    invalidates: [adminBattleEndpoints.list, battleEndpoints.list],
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    try {
      const { id } = await create.mutateAsync({ body });
      toast.success(battleMessages.created);
      form.reset();
      onCreated(id);
    } catch (err) {
      setServerErrors(err, form.setError, fieldOf);
    }
  });
  const field = (name: keyof FormValues, label: string, props: Record<string, unknown> = {}, cls = 'col-sm-6') => (
    <Form.Group className={cls} controlId={`battle-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control isInvalid={!!errors[name]} {...props} {...form.register(name)} />
      <Form.Control.Feedback type="invalid">{errors[name]?.message}</Form.Control.Feedback>
    </Form.Group>
  );
  return (
    <Form className="kb-card p-3 mb-4" onSubmit={(e) => void submit(e)} noValidate aria-label="New battle">
      <h2 className="h5">New battle</h2>
      <div className="row g-3">
        {field('title', 'Title', { maxLength: 100 })}
        <Form.Group className="col-sm-3" controlId="battle-size">
          <Form.Label>Bracket size</Form.Label>
          <Form.Select isInvalid={!!errors.size} {...form.register('size')}>
            {bracketSizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {field('registrationMinutes', 'Registration (minutes)', { type: 'number', min: 1 }, 'col-sm-3')}
        <Form.Group className="col-sm-4" controlId="battle-siteId">
          <Form.Label>Verified link on</Form.Label>
          <Form.Select isInvalid={!!errors.siteId} {...form.register('siteId')}>
            <option value="">No partner link needed</option>
            {linkable.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Form.Select>
          <Form.Control.Feedback type="invalid">{errors.siteId?.message}</Form.Control.Feedback>
        </Form.Group>
        {field('minWager', 'Minimum wager this period', { inputMode: 'decimal', placeholder: 'none' }, 'col-sm-4')}
        <div className="col-sm-4 d-flex align-items-end">
          <Form.Check id="battle-subsOnly" type="switch" label="Kick subscribers only" {...form.register('subsOnly')} />
        </div>
        <Form.Group className="col-sm-4" controlId="battle-prizeKind">
          <Form.Label>Prize</Form.Label>
          <Form.Select {...form.register('prizeKind')}>
            <option value="points">Points</option>
            <option value="item">Item (Fulfilment)</option>
          </Form.Select>
        </Form.Group>
        {kind === 'points'
          ? field('prizePoints', 'Prize points', { inputMode: 'decimal' }, 'col-sm-8')
          : field('prizeItem', 'Prize item', { maxLength: 200 }, 'col-sm-8')}
      </div>
      <p className="small text-body-secondary mt-2 mb-2">Excluded and banned accounts can never enter.</p>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        Create battle
      </Button>
    </Form>
  );
}
