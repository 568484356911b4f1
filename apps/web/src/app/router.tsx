import { lazy, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireRole } from './guards';
import { BareLayout, Layout } from './layout/layout';
import { routes, type AppRoute } from './routes';

const NotFoundPage = lazy(() => import('../features/pages/not-found-page'));

function element(route: AppRoute): ReactNode {
  const Page = route.page;
  return route.roles ? (
    <RequireRole roles={route.roles}>
      <Page />
    </RequireRole>
  ) : (
    <Page />
  );
}

export function buildRouteObjects(list: readonly AppRoute[] = routes): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        ...list.filter((r) => !r.bare).map((r) => ({ path: r.path, element: element(r) })),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
    {
      element: <BareLayout />,
      children: list.filter((r) => r.bare).map((r) => ({ path: r.path, element: element(r) })),
    },
  ];
}

export const router = createBrowserRouter(buildRouteObjects());
