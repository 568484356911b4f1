/**
 * Admin → Products: the create / edit form (react-hook-form with packages/common's productForm as
 * the resolver: every field checked as the admin types, each with its own message), including how
 * the product is delivered: nothing asked, the buyer's Steam trade URL (skins), their email (gift
 * cards), or an instant code from the product's pool (then the stock is the pool).
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { leaderboardSites } from '@kickback/common/http/leaderboards';
import {
  adminProductEndpoints,
  audienceLabels,
  audiences,
  deliveryKindLabels,
  deliveryKinds,
  limitWindowLabels,
  limitWindows,
  productForm,
  storeEndpoints,
  type AdminProduct,
  type ProductFormValues,
} from '@kickback/common/http/store';
import { ImageUpload } from '../../components/ui/image-upload';
import { useEndpointMutation } from '../../lib/query';
import { FALLBACK_IMAGE } from './catalogue';

const empty: ProductFormValues = {
  name: '',
  price: '',
  imageUrl: '',
  category: '',
  stock: '',
  delivery: 'none',
  limitCount: '',
  limitWindow: '',
  limitSite: '',
  cooldownMinutes: '',
  audience: 'everyone',
  tierSite: '',
  tierName: '',
};

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function valuesOf(p: AdminProduct): ProductFormValues {
  const restriction = p.limits?.restriction ?? null;
  return {
    name: p.name,
    price: String(p.price),
    imageUrl: p.image ?? '',
    category: p.category,
    stock: p.stock === null ? '' : String(p.stock),
    delivery: p.delivery,
    limitCount: text(p.limits?.limitCount),
    limitWindow: p.limits?.limitWindow ?? '',
    limitSite: text(p.limits?.limitSite),
    cooldownMinutes: text(p.limits?.cooldownMinutes),
    audience: restriction?.kind ?? 'everyone',
    tierSite: restriction?.kind === 'tier' ? String(restriction.site) : '',
    tierName: restriction?.kind === 'tier' ? restriction.tier : '',
  };
}

export function ProductModal({
  editing,
  categories,
  onClose,
}: {
  editing: AdminProduct | 'new';
  categories: string[];
  onClose(): void;
}) {
  const form = useForm<ProductFormValues, unknown, z.infer<typeof productForm>>({
    resolver: zodResolver(productForm),
    mode: 'onChange',
    defaultValues: editing === 'new' ? empty : valuesOf(editing),
  });
  const invalidates = [adminProductEndpoints.list, storeEndpoints.products];
  const create = useEndpointMutation(adminProductEndpoints.create, { invalidates });
  const update = useEndpointMutation(adminProductEndpoints.update, { invalidates });
  const { errors } = form.formState;
  const delivery = useWatch({ control: form.control, name: 'delivery' });
  const imageUrl = useWatch({ control: form.control, name: 'imageUrl' });
  const limitWindow = useWatch({ control: form.control, name: 'limitWindow' });
  const audience = useWatch({ control: form.control, name: 'audience' });

  const submit = form.handleSubmit(async (values) => {
    const body = { ...values, active: editing === 'new' ? true : editing.active };
    try {
      const saved =
        editing === 'new'
          ? await create.mutateAsync({ body })
          : await update.mutateAsync({ params: { id: editing.id }, body });
      toast.success(editing === 'new' ? `${saved.name} added to the store.` : `${saved.name} saved.`);
      onClose();
    } catch {
      // The API wrapper showed the server's message.
    }
  });

  const field = (name: keyof ProductFormValues) => ({
    isInvalid: !!errors[name],
    ...form.register(name),
  });
  const feedback = (name: keyof ProductFormValues) => (
    <Form.Control.Feedback type="invalid">{errors[name]?.message}</Form.Control.Feedback>
  );

  return (
    <Modal show onHide={onClose} centered aria-labelledby="product-modal-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="product-modal-title">
            {editing === 'new' ? 'New product' : 'Edit product'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId="product-name">
            <Form.Label>Name</Form.Label>
            <Form.Control maxLength={100} {...field('name')} />
            {feedback('name')}
          </Form.Group>
          <div className="row g-3 mb-3">
            <Form.Group className="col-6" controlId="product-price">
              <Form.Label>Price (points)</Form.Label>
              <Form.Control inputMode="decimal" placeholder="e.g. 5000" {...field('price')} />
              {feedback('price')}
            </Form.Group>
            <Form.Group className="col-6" controlId="product-stock">
              <Form.Label>Stock</Form.Label>
              <Form.Control
                type="number"
                min={0}
                max={1_000_000}
                step={1}
                placeholder={delivery === 'code' ? 'The code pool' : 'Unlimited'}
                disabled={delivery === 'code'}
                {...field('stock')}
              />
              {feedback('stock')}
            </Form.Group>
          </div>
          <Form.Group className="mb-3" controlId="product-delivery">
            <Form.Label>Delivery</Form.Label>
            <Form.Select {...field('delivery')}>
              {deliveryKinds.map((k) => (
                <option key={k} value={k}>
                  {deliveryKindLabels[k]}
                </option>
              ))}
            </Form.Select>
            <Form.Text>
              {delivery === 'code'
                ? 'Each purchase takes one code from the pool you upload (Codes button); the stock is the codes left.'
                : delivery === 'none'
                  ? 'The team delivers it; the buyer is asked for nothing.'
                  : 'The purchase dialog asks the buyer for it; Fulfilment shows it with the order.'}
            </Form.Text>
          </Form.Group>
          <fieldset className="mb-3">
            <legend className="h6 mb-2">Limits</legend>
            <div className="row g-3">
              <Form.Group className="col-4" controlId="product-limit-count">
                <Form.Label>Per viewer</Form.Label>
                <Form.Control
                  type="number"
                  min={1}
                  max={1000}
                  step={1}
                  placeholder="No limit"
                  {...field('limitCount')}
                />
                {feedback('limitCount')}
              </Form.Group>
              <Form.Group className="col-8" controlId="product-limit-window">
                <Form.Label>Window</Form.Label>
                <Form.Select {...field('limitWindow')}>
                  <option value="">No limit</option>
                  {limitWindows.map((w) => (
                    <option key={w} value={w}>
                      {limitWindowLabels[w]}
                    </option>
                  ))}
                </Form.Select>
                {feedback('limitWindow')}
              </Form.Group>
              {limitWindow === 'cycle' && (
                <Form.Group className="col-12" controlId="product-limit-site">
                  <Form.Label>Leaderboard whose cycle counts</Form.Label>
                  <Form.Select {...field('limitSite')}>
                    <option value="">Choose…</option>
                    {leaderboardSites.map((site) => (
                      <option key={site.id} value={String(site.id)}>
                        {site.name}
                      </option>
                    ))}
                  </Form.Select>
                  {feedback('limitSite')}
                </Form.Group>
              )}
              <Form.Group className="col-6" controlId="product-cooldown">
                <Form.Label>Cooldown (minutes)</Form.Label>
                <Form.Control
                  type="number"
                  min={1}
                  max={525_600}
                  step={1}
                  placeholder="None"
                  {...field('cooldownMinutes')}
                />
                {feedback('cooldownMinutes')}
              </Form.Group>
              <Form.Group className="col-6" controlId="product-audience">
                <Form.Label>Who may buy</Form.Label>
                <Form.Select {...field('audience')}>
                  {audiences.map((a) => (
                    <option key={a} value={a}>
                      {audienceLabels[a]}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              {audience === 'tier' && (
                <>
                  <Form.Group className="col-6" controlId="product-tier-site">
                    <Form.Label>Partner site</Form.Label>
                    <Form.Select {...field('tierSite')}>
                      <option value="">Choose…</option>
                      {leaderboardSites
                        .filter((site) => site.linkField !== null)
                        .map((site) => (
                          <option key={site.id} value={String(site.id)}>
                            {site.name}
                          </option>
                        ))}
                    </Form.Select>
                    {feedback('tierSite')}
                  </Form.Group>
                  <Form.Group className="col-6" controlId="product-tier-name">
                    <Form.Label>At least the tier</Form.Label>
                    <Form.Control maxLength={40} placeholder="e.g. Gold" {...field('tierName')} />
                    {feedback('tierName')}
                  </Form.Group>
                </>
              )}
            </div>
            <Form.Text>
              Days and weeks are UTC (weeks start on Monday); a viewer&apos;s rejected orders do not count.
            </Form.Text>
          </fieldset>
          <Form.Group className="mb-3" controlId="product-category">
            <Form.Label>Category</Form.Label>
            <Form.Control list="product-categories" maxLength={40} {...field('category')} />
            {feedback('category')}
            <datalist id="product-categories">
              {categories.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </Form.Group>
          <Form.Group controlId="product-image">
            <Form.Label>Image URL</Form.Label>
            <div className="d-flex gap-2 align-items-start">
              <img className="kb-product-thumb" src={(imageUrl ?? '').trim() || FALLBACK_IMAGE} alt="" />
              <div className="flex-grow-1">
                <Form.Control maxLength={500} placeholder="/store/hoodie.svg or https://…" {...field('imageUrl')} />
                {feedback('imageUrl')}
              </div>
            </div>
            <Form.Text>Optional; the store shows a placeholder image without one.</Form.Text>
          </Form.Group>
          <ImageUpload
            id="product-image-file"
            label="Upload an image"
            onUploaded={(url) => form.setValue('imageUrl', url, { shouldDirty: true, shouldValidate: true })}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {editing === 'new' ? 'Create' : 'Save'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
