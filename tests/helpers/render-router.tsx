import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider, type AnyRouter } from '@tanstack/react-router';

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
