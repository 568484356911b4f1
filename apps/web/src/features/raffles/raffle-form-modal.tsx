/**
 * Admin → Raffles: the create / edit form (react-hook-form, checked as the admin types by
 * packages/common's raffleInput, the server's own rule): title, description, image URL, prizes in
 * draw order (points or an item), ticket price, cap per user, eligibility, ticket sources, and the
 * opening and closing times (UTC).
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import {
  adminRaffleEndpoints,
  MAX_PRIZES,
  raffleEndpoints,
  raffleInput,
  type AdminRaffle,
  type RaffleValues,
} from '@kickback/common/http/raffles';
import { useEndpointMutation } from '../../lib/query';
import { ImageUpload } from '../../components/ui/image-upload';

interface FormValues {
  title: string;
  description: string;
  imageUrl: string;
  prizes: Array<{ kind: 'points' | 'item'; points: string; item: string }>;
  ticketPrice: string;
  maxTicketsPerUser: string;
  requireKick: boolean;
  requireVerifiedPartner: boolean;
  subsOnly: boolean;
  sellTickets: boolean;
  ticketsPerSub: string;
  subCap: string;
  ticketsPerGift: string;
  giftCap: string;
  kicksPerTicket: string;
  kicksCap: string;
  /** datetime-local values, in UTC. */
  opensAt: string;
  closesAt: string;
}

const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const fromUtcInput = (v: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00Z` : v);

function toBody(v: FormValues) {
  return {
    ...v,
    prizes: v.prizes.map((p) =>
      p.kind === 'points' ? { kind: p.kind, points: p.points } : { kind: p.kind, item: p.item },
    ),
    opensAt: fromUtcInput(v.opensAt),
    closesAt: fromUtcInput(v.closesAt),
  };
}

const checkRaffle = zodResolver(raffleInput);
const resolver: Resolver<FormValues, unknown, RaffleValues> = (values, context, options) =>
  checkRaffle(toBody(values), context, options as never) as never;

function valuesOf(r: AdminRaffle | 'new'): FormValues {
  if (r === 'new') {
    const now = Date.now();
    return {
      title: '',
      description: '',
      imageUrl: '',
      prizes: [{ kind: 'points', points: '', item: '' }],
      ticketPrice: '',
      maxTicketsPerUser: '10',
      requireKick: false,
      requireVerifiedPartner: false,
      subsOnly: false,
      sellTickets: true,
      ticketsPerSub: '0',
      subCap: '0',
      ticketsPerGift: '0',
      giftCap: '0',
      kicksPerTicket: '0',
      kicksCap: '0',
      opensAt: utcInput(now),
      closesAt: utcInput(now + 24 * 3600_000),
    };
  }
  return {
    title: r.title,
    description: r.description,
    imageUrl: r.imageUrl ?? '',
    prizes: r.prizes.map((p) => ({
      kind: p.kind,
      points: p.points === null ? '' : String(p.points),
      item: p.item ?? '',
    })),
    ticketPrice: String(r.ticketPrice),
    maxTicketsPerUser: String(r.maxTicketsPerUser),
    requireKick: r.requireKick,
    requireVerifiedPartner: r.requireVerifiedPartner,
    subsOnly: r.subsOnly,
    sellTickets: r.sellTickets,
    ticketsPerSub: String(r.ticketsPerSub),
    subCap: String(r.subCap),
    ticketsPerGift: String(r.ticketsPerGift),
    giftCap: String(r.giftCap),
    kicksPerTicket: String(r.kicksPerTicket),
    kicksCap: String(r.kicksCap),
    opensAt: utcInput(Date.parse(r.opensAt)),
    closesAt: utcInput(Date.parse(r.closesAt)),
  };
}

export function RaffleFormModal({ editing, onClose }: { editing: AdminRaffle | 'new'; onClose(): void }) {
  const form = useForm<FormValues, unknown, RaffleValues>({
    resolver,
    mode: 'onChange',
    defaultValues: valuesOf(editing),
  });
  const prizes = useFieldArray({ control: form.control, name: 'prizes' });
  const kinds = useWatch({ control: form.control, name: 'prizes' });
  const invalidates = [adminRaffleEndpoints.list, raffleEndpoints.list];
  const create = useEndpointMutation(adminRaffleEndpoints.create, { invalidates });
  const update = useEndpointMutation(adminRaffleEndpoints.update, { invalidates });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (body) => {
    try {
      const saved =
        editing === 'new'
          ? await create.mutateAsync({ body })
          : await update.mutateAsync({ params: { id: editing.id }, body });
      toast.success(saved.message);
      onClose();
    } catch {
      // The API wrapper showed the server's message.
    }
  });

  type Plain = Exclude<keyof FormValues, 'prizes'>;
  const text = (name: Plain, label: string, props: Record<string, unknown> = {}) => (
    <Form.Group className="col-sm-6" controlId={`raffle-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control isInvalid={!!errors[name]} {...props} {...form.register(name)} />
      <Form.Control.Feedback type="invalid">{errors[name]?.message}</Form.Control.Feedback>
    </Form.Group>
  );
  const check = (name: Plain, label: string) => (
    <Form.Check id={`raffle-${name}`} type="switch" label={label} {...form.register(name)} />
  );

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby="raffle-modal-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="raffle-modal-title">
            {editing === 'new' ? 'New raffle' : 'Edit raffle'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <div className="row g-3 mb-3">
            {text('title', 'Title', { maxLength: 100 })}
            {text('imageUrl', 'Image URL', { maxLength: 500, placeholder: 'https://… or /path' })}
            <div className="col-sm-6 offset-sm-6 mt-0">
              <ImageUpload
                id="raffle-image-file"
                label="Upload an image"
                onUploaded={(url) => form.setValue('imageUrl', url, { shouldDirty: true, shouldValidate: true })}
              />
            </div>
            <Form.Group className="col-12" controlId="raffle-description">
              <Form.Label>Description</Form.Label>
              <Form.Control as="textarea" rows={2} maxLength={2000} {...form.register('description')} />
            </Form.Group>
          </div>
          <fieldset className="mb-3">
            <legend className="h6">Prizes, in draw order</legend>
            {prizes.fields.map((field, i) => (
              <div key={field.id} className="row g-2 align-items-start mb-2" data-testid="raffle-prize-row">
                <Form.Group className="col-4" controlId={`raffle-prize-${i}-kind`}>
                  <Form.Label className="visually-hidden">Prize {i + 1} kind</Form.Label>
                  <Form.Select {...form.register(`prizes.${i}.kind`)}>
                    <option value="points">Points</option>
                    <option value="item">Item (Fulfilment)</option>
                  </Form.Select>
                </Form.Group>
                {kinds[i]?.kind === 'item' ? (
                  <Form.Group className="col-6" controlId={`raffle-prize-${i}-item`}>
                    <Form.Label className="visually-hidden">Prize {i + 1} item</Form.Label>
                    <Form.Control
                      placeholder="e.g. AK-47 | Redline"
                      isInvalid={!!errors.prizes?.[i]?.item}
                      {...form.register(`prizes.${i}.item`)}
                    />
                    <Form.Control.Feedback type="invalid">{errors.prizes?.[i]?.item?.message}</Form.Control.Feedback>
                  </Form.Group>
                ) : (
                  <Form.Group className="col-6" controlId={`raffle-prize-${i}-points`}>
                    <Form.Label className="visually-hidden">Prize {i + 1} points</Form.Label>
                    <Form.Control
                      inputMode="decimal"
                      placeholder="Points, e.g. 5000"
                      isInvalid={!!errors.prizes?.[i]?.points}
                      {...form.register(`prizes.${i}.points`)}
                    />
                    <Form.Control.Feedback type="invalid">{errors.prizes?.[i]?.points?.message}</Form.Control.Feedback>
                  </Form.Group>
                )}
                <div className="col-2">
                  <Button
                    variant="outline-secondary"
                    onClick={() => prizes.remove(i)}
                    disabled={prizes.fields.length === 1}
                    aria-label={`Remove prize ${i + 1}`}
                  >
                    Remove
                  </Button>
                </div>
              </div>
            ))}
            <Button
              variant="outline-light"
              size="sm"
              disabled={prizes.fields.length >= MAX_PRIZES}
              onClick={() => prizes.append({ kind: 'points', points: '', item: '' })}
            >
              Add prize
            </Button>
            {errors.prizes?.message && <div className="text-danger small">{errors.prizes.message}</div>}
          </fieldset>
          <div className="row g-3 mb-3">
            {text('ticketPrice', 'Ticket price (points)', { inputMode: 'decimal' })}
            {text('maxTicketsPerUser', 'Maximum tickets per user', { type: 'number', min: 1, step: 1 })}
            {text('opensAt', 'Opens (UTC)', { type: 'datetime-local' })}
            {text('closesAt', 'Closes (UTC)', { type: 'datetime-local' })}
          </div>
          <fieldset className="mb-3">
            <legend className="h6">Who may enter (excluded and banned accounts never)</legend>
            {check('requireKick', 'Linked Kick account')}
            {check('requireVerifiedPartner', 'Verified partner link')}
            {check('subsOnly', 'Kick subscribers only')}
          </fieldset>
          <fieldset>
            <legend className="h6">Ticket sources</legend>
            {check('sellTickets', 'Sold for points on the site')}
            <div className="row g-3 mt-1">
              {text('ticketsPerSub', 'Tickets per sub', { type: 'number', min: 0 })}
              {text('subCap', 'Sub tickets cap per user', { type: 'number', min: 0 })}
              {text('ticketsPerGift', 'Tickets per gifted sub', { type: 'number', min: 0 })}
              {text('giftCap', 'Gifted sub tickets cap per user', { type: 'number', min: 0 })}
              {text('kicksPerTicket', 'KICKs per ticket', { type: 'number', min: 0 })}
              {text('kicksCap', 'KICKs tickets cap per user', { type: 'number', min: 0 })}
            </div>
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
