/**
 * /store (docs/product.md#site-screens-and-routes "Store page"): title, "You have N points" when
 * signed in, category filter (All + the server's categories), sort (Price: High to Low = 1,
 * default; Low to High = 2), and product cards (image or the fallback, name, price in pts, Buy,
 * category badge). Buy is disabled signed out or when the price exceeds the user's points; Buy
 * opens the purchase dialog (item, price, balance after, delivery details), which places the order,
 * shows the server's message as a success toast, then the user is refreshed.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { PRODUCT_SORT_HIGH_TO_LOW, storeEndpoints, type Product } from '@kickback/common/http/store';
import { useAuth } from '../../shared/auth/auth-context';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { toast } from '../../lib/toast';
import { ALL_CATEGORIES, buyState, FALLBACK_IMAGE, limitNotes, visibleProducts, type BuyState } from './catalogue';
import './store.css';
import { useTranslation } from '../../i18n/i18n';

// The dialog (its form library and the order schemas) loads when Buy is first pressed, not before
// the store draws (docs/benchmarks.md#first-load-budget-per-page).
const PurchaseDialog = lazy(() => import('./purchase-dialog').then((m) => ({ default: m.PurchaseDialog })));

const buyTitles = {
  'sign-in': 'store.signInToBuy',
  'too-dear': 'store.notEnough',
  'sold-out': 'store.soldOut',
} as const;

const deliveryNotes = {
  steam_trade_url: 'store.delivery.steam_trade_url',
  email: 'store.delivery.email',
  code: 'store.delivery.code',
} as const;
const deliveryNote = (delivery: Product['delivery']) =>
  delivery in deliveryNotes ? deliveryNotes[delivery as keyof typeof deliveryNotes] : null;

/** "Notify me when back in stock" (docs/features/store-limits.md#back-in-stock). */
function NotifyMe({ product }: { product: Product }) {
  const { t } = useTranslation();
  const ask = useEndpointMutation(storeEndpoints.restockAlert, { onSuccess: (res) => toast.success(res.message) });
  return (
    <Button
      size="sm"
      variant="outline-secondary"
      disabled={ask.isPending || ask.isSuccess}
      onClick={() => ask.mutate({ params: { id: product.id } })}
      aria-label={t('store.notifyLabel', { name: product.name })}
    >
      {ask.isSuccess ? t('store.willNotify') : t('store.notifyMe')}
    </Button>
  );
}

function ProductCard({ product, state, onBuy }: { product: Product; state: BuyState; onBuy(): void }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState(product.image || FALLBACK_IMAGE);
  const delivery = deliveryNote(product.delivery);
  const soldOut = state === 'sold-out';
  const notes = limitNotes(product);
  return (
    <article className={`kb-product${soldOut ? ' kb-product-soldout' : ''}`} aria-label={product.name}>
      <div className="kb-product-image">
        <img
          src={src}
          alt=""
          loading="lazy"
          onError={() => {
            if (src !== FALLBACK_IMAGE) setSrc(FALLBACK_IMAGE);
          }}
        />
        <Badge bg="dark" className="kb-product-category">
          {product.category}
        </Badge>
        {product.stock !== null && (
          <span className="kb-product-stock">
            {soldOut ? t('store.soldOut') : t('store.left', { count: product.stock })}
          </span>
        )}
      </div>
      <div className="kb-product-body">
        <h2 className="kb-product-name" title={product.name}>
          {product.name}
        </h2>
        {delivery && <p className="kb-product-delivery">{t(delivery)}</p>}
        {notes.length > 0 && <p className="kb-product-delivery kb-product-limits">{notes.join(' · ')}</p>}
        <div className="kb-product-footer">
          <span className="kb-product-price">
            {formatAmount(product.price)} <small>{t('store.pts')}</small>
          </span>
          {soldOut && <NotifyMe product={product} />}
          <Button
            size="sm"
            disabled={state !== 'ok'}
            onClick={onBuy}
            title={state === 'ok' ? undefined : t(buyTitles[state])}
            aria-label={t('store.buyLabel', { name: product.name })}
          >
            {t('store.buy')}
          </Button>
        </div>
      </div>
    </article>
  );
}

export default function StorePage() {
  const { t } = useTranslation();
  const { user, refreshUser } = useAuth();
  const query = useEndpointQuery(storeEndpoints.products, { silent: true });
  // A failed load shows an empty store (docs/product.md#site-errors-and-toasts: list loads fail silently).
  const data = useMemo(
    () => query.data ?? (query.isError ? { data: [], categories: [] } : null),
    [query.data, query.isError],
  );
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const [sort, setSort] = useState(PRODUCT_SORT_HIGH_TO_LOW);
  const [buying, setBuying] = useState<Product | null>(null);

  const shown = useMemo(() => (data ? visibleProducts(data.data, category, sort) : []), [data, category, sort]);
  const points = user ? user.points : null;

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-3 mb-4">
        <div>
          <h1 className="h2 mb-1">{t('store.title')}</h1>
          {user ? (
            <p className="mb-0 kb-store-balance" data-testid="store-balance">
              {t('store.youHave')}
              <strong className="kb-accent">{formatAmount(user.points)}</strong>
              {t('store.youHaveEnd')}
            </p>
          ) : (
            <p className="mb-0 text-body-secondary">{t('store.signInToSpend')}</p>
          )}
          <p className="mb-0 mt-1">
            <Link to="/earn" className="kb-feature-link">
              {t('store.howToEarn')}
            </Link>
          </p>
        </div>
        <div className="d-flex flex-wrap gap-2">
          <Form.Select
            aria-label={t('store.category')}
            className="w-auto kb-store-select"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            <option value={ALL_CATEGORIES}>{t('store.all')}</option>
            {data?.categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Form.Select>
          <Form.Select
            aria-label={t('store.sort')}
            className="w-auto"
            value={sort}
            onChange={(e) => setSort(Number(e.target.value))}
          >
            <option value={1}>{t('store.highToLow')}</option>
            <option value={2}>{t('store.lowToHigh')}</option>
          </Form.Select>
        </div>
      </div>
      {!data ? (
        <div className="text-center py-5">
          <Spinner animation="border" role="status" aria-label={t('store.loading')} />
        </div>
      ) : shown.length === 0 ? (
        <div className="kb-card text-center py-5 text-body-secondary">
          {data.data.length === 0 ? t('store.empty') : t('store.emptyCategory')}
        </div>
      ) : (
        <div className="kb-product-grid">
          {shown.map((p) => (
            <ProductCard key={p.id} product={p} state={buyState(p, points)} onBuy={() => setBuying(p)} />
          ))}
        </div>
      )}
      {buying && user && (
        <Suspense fallback={null}>
          <PurchaseDialog
            key={buying.id}
            product={buying}
            points={user.points}
            onClose={() => setBuying(null)}
            onBought={refreshUser}
          />
        </Suspense>
      )}
      {user && (
        <p className="text-body-secondary small mt-4 mb-0">
          {t('store.deliveredBy')} <Link to="/activity">{t('shell.myActivity')}</Link>
          {t('store.deliveredByEnd')}
        </p>
      )}
    </section>
  );
}
