import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  type AnyRoute,
  type AnyRouter,
} from '@tanstack/react-router';
import type { RouterContext } from '../../src/routes/__root.js';

/** Renders a test's router inside a query client, as the app runs its screens (StrictMode's double mount when asked). */
export function renderRouter(router: AnyRouter, queryClient = new QueryClient(), { strict = false } = {}) {
  const app = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  render(strict ? <StrictMode>{app}</StrictMode> : app);
}

/** Renders one component at '/' of a router (links need one), inside a query client. */
export function renderInRouter(node: ReactNode) {
  const rootRoute = createRootRoute();
  const page = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <>{node}</> });
  renderRouter(createRouter({ routeTree: rootRoute.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/'] }) }));
}

/**
 * Mounts one file route (`path`, without its layout's id) on a real router and query client as the
 * route tree mounts it, opens `url`, and scripts only the network: `answer` gives each fetch's response.
 */
export function renderRoute(route: AnyRoute, path: string, url: string, answer: (url: string) => Response) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => answer(String(input)));
  const root = createRootRouteWithContext<RouterContext>()();
  const mounted = route.update({ id: path, path, getParentRoute: () => root } as never);
  const history = createMemoryHistory({ initialEntries: [url] });
  renderRouter(createRouter({ routeTree: root.addChildren([mounted]), history, context: { queryClient } }), queryClient);
}
