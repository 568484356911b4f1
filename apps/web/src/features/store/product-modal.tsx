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
import {
  adminProductEndpoints,
  deliveryKindLabels,
  deliveryKinds,
  productForm,
  storeEndpoints,
  type AdminProduct,
  type ProductFormValues,
} from '@kickback/common/http/store';
import { ImageUpload } from '../../components/ui/image-upload';
import { useEndpointMutation } from '../../lib/query';
import { FALLBACK_IMAGE } from './catalogue';

const empty: ProductFormValues = { name: '', price: '', imageUrl: '', category: '', stock: '', delivery: 'none' };

function valuesOf(p: AdminProduct): ProductFormValues {
  return {
    name: p.name,
    price: String(p.price),
    imageUrl: p.image ?? '',
    category: p.category,
    stock: p.stock === null ? '' : String(p.stock),
    delivery: p.delivery,
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
