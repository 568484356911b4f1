/**
 * Admin → Products (/admin/products): the store catalogue. Create and edit products (name, price in
 * points, image URL, category, optional stock, delivery), deactivate and reactivate them, and for
 * instant-code products upload codes (Codes: counts and masked tails only).
 */
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { FaPlus } from 'react-icons/fa6';
import {
  adminProductEndpoints,
  deliveryKindLabels,
  storeEndpoints,
  type AdminProduct,
} from '@kickback/common/http/store';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { FALLBACK_IMAGE } from './catalogue';
import { CodesModal } from './codes-modal';
import { ProductModal } from './product-modal';
import './store.css';
import { EmptyRow } from '../../components/ui/empty-row';

export default function AdminProductsPage() {
  const list = useEndpointQuery(adminProductEndpoints.list);
  const products = list.data ?? (list.isError ? [] : null);
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);
  const [codesOf, setCodesOf] = useState<AdminProduct | null>(null);
  const activeMutation = useEndpointMutation(adminProductEndpoints.setActive, {
    invalidates: [adminProductEndpoints.list, storeEndpoints.products],
  });

  const setActive = async (p: AdminProduct, active: boolean) => {
    try {
      await activeMutation.mutateAsync({ params: { id: p.id }, body: { active } });
      toast.success(active ? `${p.name} is back in the store.` : `${p.name} was taken out of the store.`);
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
              <th>Delivery</th>
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
                <td className="text-end text-nowrap">{formatAmount(p.price)} pts</td>
                <td className="small">{deliveryKindLabels[p.delivery]}</td>
                <td className="text-end">{p.stock ?? '∞'}</td>
                <td className="text-end">{p.sold}</td>
                <td>{p.active ? <Badge bg="success">Active</Badge> : <Badge bg="secondary">Inactive</Badge>}</td>
                <td className="text-end text-nowrap">
                  {p.delivery === 'code' && (
                    <Button
                      size="sm"
                      variant="outline-info"
                      className="me-1"
                      onClick={() => setCodesOf(p)}
                      aria-label={`Codes of ${p.name}`}
                    >
                      Codes ({p.codes?.available ?? 0})
                    </Button>
                  )}
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
            {products && products.length === 0 && <EmptyRow columns={9}>No products yet. Add the first one.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      {editing !== null && (
        <ProductModal
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing}
          categories={categories}
          onClose={() => setEditing(null)}
        />
      )}
      {codesOf && <CodesModal key={codesOf.id} product={codesOf} onClose={() => setCodesOf(null)} />}
    </section>
  );
}
