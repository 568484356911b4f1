import { lazy, Suspense } from 'react';
import type { ToastPosition } from 'react-toastify';
import { loadToasts } from '../../lib/toast';

// react-toastify loads beside the page, not before it draws (docs/benchmarks.md#first-load-budget-per-page).
const ToastArea = lazy(() =>
  loadToasts().then(({ Bounce, ToastContainer }) => ({
    default: ({ position }: { position: ToastPosition }) => (
      <ToastContainer
        position={position}
        autoClose={5000}
        newestOnTop
        pauseOnHover
        pauseOnFocusLoss
        closeOnClick
        draggable
        draggablePercent={80}
        theme="light"
        role="alert"
        transition={Bounce}
      />
    ),
  })),
);

/**
 * The toast area with every setting of docs/product.md#site-constants-and-limits: 5000 ms, newest
 * on top, pause on hover and focus loss, close on click, draggable at 80%, light theme, role alert,
 * exit collapse 300 ms (Bounce collapses in 300 ms). Bottom-right in the layout; one area of the
 * product uses top-right.
 */
export function Toasts({ position = 'bottom-right' }: { position?: ToastPosition }) {
  return (
    <Suspense fallback={null}>
      <ToastArea position={position} />
    </Suspense>
  );
}
