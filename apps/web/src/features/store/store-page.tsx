/**
 * /store (spec part 1 §2 "Store page"): title, "You have N points" when signed in, category filter
 * (All + the server's categories), sort (Price: High to Low = 1, default; Low to High = 2), and
 * product cards (image or the fallback, name, price in pts, Buy, category badge). Buy is disabled
 * signed out or when the price exceeds the user's points; a purchase shows the server's message
 * as a success toast, then the user is refreshed.
 */
import { useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { Link } from 'react-router';
import {
  PRODUCT_SORT_HIGH_TO_LOW,
  storeEndpoints,
  type Product,
  type ProductsResponse,
} from '@kickback/common/http/store';
import { useAuth } from '../../app/auth/auth-context';
import { api } from '../../lib/api';
import { formatPoints } from '../../lib/format';
import { ALL_CATEGORIES, buyState, FALLBACK_IMAGE, visibleProducts, type BuyState } from './catalogue';
import './store.css';

const buyTitles: Record<BuyState, string | undefined> = {
  'sign-in': 'Sign in to buy',
  'too-dear': 'Not enough points',
  'sold-out': 'Sold out',
  ok: undefined,
};

function ProductCard({
  product,
  state,
  buying,
  onBuy,
}: {
  product: Product;
  state: BuyState;
  buying: boolean;
  onBuy(): void;
}) {
  const [src, setSrc] = useState(product.image || FALLBACK_IMAGE);
  const soldOut = state === 'sold-out';
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
          <span className="kb-product-stock">{soldOut ? 'Sold out' : `${product.stock} left`}</span>
        )}
      </div>
      <div className="kb-product-body">
        <h2 className="kb-product-name">{product.name}</h2>
        <div className="kb-product-footer">
          <span className="kb-product-price">
            {formatPoints(product.price)} <small>pts</small>
          </span>
          <Button
            size="sm"
            disabled={state !== 'ok' || buying}
            onClick={onBuy}
            title={buyTitles[state]}
            aria-label={`Buy ${product.name}`}
          >
            {buying ? <Spinner size="sm" animation="border" role="status" aria-label="Buying" /> : 'Buy'}
          </Button>
        </div>
      </div>
    </article>
  );
}

export default function StorePage() {
  const { user, refreshUser } = useAuth();
  const [data, setData] = useState<ProductsResponse | null>(null);
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const [sort, setSort] = useState(PRODUCT_SORT_HIGH_TO_LOW);
  const [buying, setBuying] = useState<number | null>(null);

  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api(storeEndpoints.products, { silent: true, signal: controller.signal })
      .then(setData)
      .catch((err: Error) => {
        if (err.name !== 'AbortError') setData((d) => d ?? { data: [], categories: [] });
      });
    return () => controller.abort();
  }, [version]);

  const shown = useMemo(() => (data ? visibleProducts(data.data, category, sort) : []), [data, category, sort]);
  const points = user ? user.points : null;

  const buy = async (product: Product) => {
    setBuying(product.id);
    try {
      const { message } = await api(storeEndpoints.order, { body: { productId: product.id } });
      toast.success(message);
      await refreshUser();
    } catch {
      // The API wrapper showed why.
    } finally {
      setBuying(null);
      setVersion((v) => v + 1);
    }
  };

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-3 mb-4">
        <div>
          <h1 className="h2 mb-1">Store</h1>
          {user ? (
            <p className="mb-0 kb-store-balance" data-testid="store-balance">
              You have <strong className="kb-accent">{formatPoints(user.points)}</strong> points
            </p>
          ) : (
            <p className="mb-0 text-body-secondary">
              Sign in to spend your points. Earn them by chatting and wagering on the code.
            </p>
          )}
        </div>
        <div className="d-flex flex-wrap gap-2">
          <Form.Select
            aria-label="Category"
            className="w-auto kb-store-select"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            <option value={ALL_CATEGORIES}>All</option>
            {data?.categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Form.Select>
          <Form.Select
            aria-label="Sort"
            className="w-auto"
            value={sort}
            onChange={(e) => setSort(Number(e.target.value))}
          >
            <option value={1}>Price: High to Low</option>
            <option value={2}>Price: Low to High</option>
          </Form.Select>
        </div>
      </div>
      {!data ? (
        <div className="text-center py-5">
          <Spinner animation="border" role="status" aria-label="Loading products" />
        </div>
      ) : shown.length === 0 ? (
        <div className="kb-card text-center py-5 text-body-secondary">
          {data.data.length === 0 ? 'The store is empty right now. Check back soon!' : 'Nothing in this category.'}
        </div>
      ) : (
        <div className="kb-product-grid">
          {shown.map((p) => (
            <ProductCard
              key={p.id}
              product={p}
              state={buyState(p, points)}
              buying={buying === p.id}
              onBuy={() => void buy(p)}
            />
          ))}
        </div>
      )}
      {user && (
        <p className="text-body-secondary small mt-4 mb-0">
          Orders are delivered by the team, usually within 24 hours. Track them in{' '}
          <Link to="/activity">My activity</Link>.
        </p>
      )}
    </section>
  );
}
