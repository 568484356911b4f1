/**
 * Buying asks first (docs/features/points-and-store.md): the item, its price and the balance after
 * the purchase; a product delivered to a Steam trade URL or an email asks for it here, checked as
 * the buyer types by the same zod rule the server applies (packages/common). Confirm places the
 * order (docs/product.md#site-calls `POST /api/Order/OrderProduct`, its message as the success
 * toast). An instant-code product shows its code right away (it also stays in My activity).
 */
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { Link } from 'react-router';
import { activityEndpoints } from '@kickback/common/http/activity';
import {
  deliveryDetailMessages,
  needsDetail,
  purchaseForm,
  storeEndpoints,
  type Product,
  type PurchaseFormValues,
} from '@kickback/common/http/store';
import { centsToNumber, toCents } from '@kickback/common/money';
import { ApiError } from '../../lib/api';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation } from '../../lib/query';
import { FALLBACK_IMAGE } from './catalogue';
import { useTranslation } from '../../i18n/i18n';

/** The balance after paying `price` out of `points`, exact to the cent. */
export function balanceAfter(points: number, price: number): number {
  return centsToNumber(toCents(points) - toCents(price));
}

export function PurchaseDialog({
  product,
  points,
  onClose,
  onBought,
}: {
  product: Product;
  points: number;
  onClose(): void;
  onBought(): Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>(null);
  const detailKind = needsDetail(product.delivery) ? product.delivery : null;
  const form = useForm<PurchaseFormValues>({
    resolver: zodResolver(purchaseForm(product.delivery)),
    mode: 'onChange',
    defaultValues: { deliveryDetail: '' },
  });
  const order = useEndpointMutation(storeEndpoints.order, {
    invalidates: [storeEndpoints.products, activityEndpoints.orders, activityEndpoints.ledger],
  });
  const after = balanceAfter(points, product.price);

  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await order.mutateAsync({
        body: { productId: product.id, ...(detailKind ? { deliveryDetail: values.deliveryDetail } : {}) },
      });
      toast.success(res.message);
      await onBought();
      if (res.code !== null) setCode(res.code);
      else onClose();
    } catch (err) {
      // The API wrapper showed the server's message; a refused detail also marks its field.
      if (err instanceof ApiError && detailKind && err.serverMessage === deliveryDetailMessages[detailKind]) {
        form.setError('deliveryDetail', { message: err.serverMessage });
      }
    }
  });

  if (code !== null) {
    return (
      <Modal show onHide={onClose} centered aria-labelledby="purchase-title">
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="purchase-title">
            {t('purchase.yourCode', { name: product.name })}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-2">{t('purchase.redeem')}</p>
          <div className="kb-code-box" data-testid="purchased-code">
            <code>{code}</code>
            <Button
              size="sm"
              variant="outline-light"
              onClick={() => {
                void navigator.clipboard
                  ?.writeText(code)
                  .then(() => toast.success(t('purchase.copied')))
                  .catch(() => undefined);
              }}
            >
              {t('purchase.copy')}
            </Button>
          </div>
          <p className="small text-body-secondary mt-3 mb-0">
            {t('purchase.staysIn')} <Link to="/activity">{t('shell.myActivity')}</Link>
            {t('purchase.staysInEnd')}
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button onClick={onClose}>{t('purchase.done')}</Button>
        </Modal.Footer>
      </Modal>
    );
  }

  const error = form.formState.errors.deliveryDetail?.message;
  return (
    <Modal show onHide={onClose} centered aria-labelledby="purchase-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="purchase-title">
            {t('purchase.confirm')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <div className="kb-purchase-item">
            <img className="kb-product-thumb" src={product.image || FALLBACK_IMAGE} alt="" />
            <div className="kb-purchase-name">{product.name}</div>
          </div>
          <dl className="kb-purchase-sums" data-testid="purchase-sums">
            <dt>{t('purchase.price')}</dt>
            <dd>{t('shell.pointsPill', { points: formatAmount(product.price) })}</dd>
            <dt>{t('purchase.balance')}</dt>
            <dd>{t('shell.pointsPill', { points: formatAmount(points) })}</dd>
            <dt>{t('purchase.after')}</dt>
            <dd className="kb-accent fw-bold" data-testid="balance-after">
              {t('shell.pointsPill', { points: formatAmount(after) })}
            </dd>
          </dl>
          {product.delivery === 'code' && (
            <Alert variant="dark" className="small mb-0">
              {t('purchase.codeNote')}
            </Alert>
          )}
          {detailKind && (
            <Form.Group controlId="purchase-detail">
              <Form.Label>{t(`purchase.detailLabel.${detailKind}`)}</Form.Label>
              <Form.Control
                type={detailKind === 'email' ? 'email' : 'url'}
                autoComplete={detailKind === 'email' ? 'email' : 'off'}
                maxLength={detailKind === 'email' ? 254 : 300}
                placeholder={
                  detailKind === 'email'
                    ? 'name@example.com'
                    : 'https://steamcommunity.com/tradeoffer/new/?partner=…&token=…'
                }
                isInvalid={!!error}
                aria-describedby="purchase-detail-help"
                {...form.register('deliveryDetail')}
              />
              <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
              <Form.Text id="purchase-detail-help">{t(`purchase.detailHelp.${detailKind}`)}</Form.Text>
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={order.isPending || after < 0}>
            {order.isPending ? (
              <Spinner size="sm" animation="border" role="status" aria-label={t('purchase.buying')} />
            ) : (
              t('purchase.buyFor', { price: formatAmount(product.price) })
            )}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
