/**
 * Admin → Products (/admin/products): the store catalogue. Create and edit products (name, price in
 * points, image URL, category, optional stock), deactivate and reactivate them. The server
 * validates; its message (naming the field) is shown as the error toast.
 */
import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { FaPlus } from 'react-icons/fa6';
import { adminProductEndpoints, type AdminProduct } from '@kickback/common/http/store';
import { api } from '../../lib/api';
import { formatPoints } from '../../lib/format';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FALLBACK_IMAGE } from './catalogue';
import './store.css';
import { EmptyRow } from '../../components/ui/empty-row';

interface Draft {
  name: string;
  price: string;
  imageUrl: string;
  category: string;
  stock: string;
}

const empty: Draft = { name: '', price: '', imageUrl: '', category: '', stock: '' };

function toDraft(p: AdminProduct): Draft {
  return {
    name: p.name,
    price: String(p.price),
    imageUrl: p.image ?? '',
    category: p.category,
    stock: p.stock === null ? '' : String(p.stock),
  };
}

function ProductModal({
  editing,
  categories,
  onClose,
  onSaved,
}: {
  editing: AdminProduct | 'new' | null;
  categories: string[];
  onClose(): void;
  onSaved(): void;
}) {
  const [draft, setDraft] = useState<Draft>(() => (editing && editing !== 'new' ? toDraft(editing) : empty));
  const set = (k: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));

  const { busy, onSubmit } = useFormSubmit(async () => {
    if (!editing) return null;
    const body = {
      name: draft.name,
      // Sent as typed: the server names the field when it is not a positive amount.
      price: draft.price.trim(),
      imageUrl: draft.imageUrl.trim() || null,
      category: draft.category,
      stock: draft.stock.trim() === '' ? null : Number(draft.stock),
      active: editing === 'new' ? true : editing.active,
    };
    const saved =
      editing === 'new'
        ? await api(adminProductEndpoints.create, { body })
        : await api(adminProductEndpoints.update, { params: { id: editing.id }, body });
    return editing === 'new' ? `${saved.name} added to the store.` : `${saved.name} saved.`;
  }, onSaved);

  return (
    <Modal show={editing !== null} onHide={onClose} centered>
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5">
            {editing === 'new' ? 'New product' : 'Edit product'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId="product-name">
            <Form.Label>Name</Form.Label>
            <Form.Control value={draft.name} onChange={set('name')} maxLength={100} required />
          </Form.Group>
          <div className="row g-3 mb-3">
            <Form.Group className="col-6" controlId="product-price">
              <Form.Label>Price (points)</Form.Label>
              <Form.Control
                inputMode="decimal"
                value={draft.price}
                onChange={set('price')}
                placeholder="e.g. 5000"
                required
              />
            </Form.Group>
            <Form.Group className="col-6" controlId="product-stock">
              <Form.Label>Stock</Form.Label>
              <Form.Control
                type="number"
                min={0}
                step={1}
                value={draft.stock}
                onChange={set('stock')}
                placeholder="Unlimited"
              />
            </Form.Group>
          </div>
          <Form.Group className="mb-3" controlId="product-category">
            <Form.Label>Category</Form.Label>
            <Form.Control
              list="product-categories"
              value={draft.category}
              onChange={set('category')}
              maxLength={40}
              required
            />
            <datalist id="product-categories">
              {categories.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </Form.Group>
          <Form.Group controlId="product-image">
            <Form.Label>Image URL</Form.Label>
            <div className="d-flex gap-2 align-items-center">
              <img className="kb-product-thumb" src={draft.imageUrl.trim() || FALLBACK_IMAGE} alt="" />
              <Form.Control
                value={draft.imageUrl}
                onChange={set('imageUrl')}
                placeholder="/store/hoodie.svg or https://…"
              />
            </div>
            <Form.Text>Optional; the store shows a placeholder image without one.</Form.Text>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {editing === 'new' ? 'Create' : 'Save'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export default function AdminProductsPage() {
  const [products, setProducts] = useState<AdminProduct[] | null>(null);
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);

  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    const controller = new AbortController();
    api(adminProductEndpoints.list, { signal: controller.signal })
      .then(setProducts)
      .catch((err: Error) => {
        if (err.name !== 'AbortError') setProducts((p) => p ?? []);
      });
    return () => controller.abort();
  }, [version]);

  const setActive = async (p: AdminProduct, active: boolean) => {
    try {
      await api(adminProductEndpoints.setActive, { params: { id: p.id }, body: { active } });
      toast.success(active ? `${p.name} is back in the store.` : `${p.name} was taken out of the store.`);
      reload();
    } catch {
      // shown
    }
  };

  const categories = [...new Set((products ?? []).map((p) => p.category))].sort();
  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-1">
        <h1 className="h3 mb-0">Products</h1>
        <Button onClick={() => setEditing('new')}>
          <FaPlus aria-hidden className="me-1" /> New product
        </Button>
      </div>
      <p className="text-body-secondary">
        What the store sells. Deactivated products disappear from the store; orders keep their price.
      </p>
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Products">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="products-table">
          <thead>
            <tr>
              <th aria-label="Image" />
              <th>Name</th>
              <th>Category</th>
              <th className="text-end">Price</th>
              <th className="text-end">Stock</th>
              <th className="text-end">Sold</th>
              <th>Status</th>
              <th className="text-end">Actions</th>
            </tr>
          </thead>
          <tbody>
            {products?.map((p) => (
              <tr key={p.id} className={p.active ? '' : 'opacity-50'}>
                <td>
                  <img className="kb-product-thumb" src={p.image || FALLBACK_IMAGE} alt="" />
                </td>
                <td className="fw-semibold">{p.name}</td>
                <td>{p.category}</td>
                <td className="text-end text-nowrap">{formatPoints(p.price)} pts</td>
                <td className="text-end">{p.stock ?? '∞'}</td>
                <td className="text-end">{p.sold}</td>
                <td>{p.active ? <Badge bg="success">Active</Badge> : <Badge bg="secondary">Inactive</Badge>}</td>
                <td className="text-end text-nowrap">
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    className="me-1"
                    onClick={() => setEditing(p)}
                    aria-label={`Edit ${p.name}`}
                  >
                    Edit
                  </Button>
                  {p.active ? (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      onClick={() => void setActive(p, false)}
                      aria-label={`Deactivate ${p.name}`}
                    >
                      Deactivate
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="outline-success"
                      onClick={() => void setActive(p, true)}
                      aria-label={`Reactivate ${p.name}`}
                    >
                      Reactivate
                    </Button>
                  )}
                </td>
              </tr>
            ))}
            {products && products.length === 0 && <EmptyRow columns={8}>No products yet. Add the first one.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      <ProductModal
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
        editing={editing}
        categories={categories}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          reload();
        }}
      />
    </section>
  );
}
