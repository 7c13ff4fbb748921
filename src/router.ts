import { createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.js';
import { queryClient } from './api/queryClient.js';
import { Spinner } from './components/Spinner.js';
import { createElement } from 'react';

export const router = createRouter({
  routeTree,
  context: { queryClient },
  // Query owns caching; the router always runs loaders (which only prefetch).
  defaultPreloadStaleTime: 0,
  defaultPreload: 'intent',
  defaultPendingComponent: () => createElement(Spinner, { label: 'Loading...' }),
  defaultNotFoundComponent: lazyRouteComponent(() => import('./screens/NotFound.js'), 'NotFound'),
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
