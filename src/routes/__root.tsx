import { useEffect } from 'react';
import { Outlet, createRootRouteWithContext, lazyRouteComponent, useRouterState } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Navbar } from '../components/Navbar.js';
import { documentTitle } from '../lib/documentTitle.js';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  // Loaded when a page is not found, not with every page.
  notFoundComponent: lazyRouteComponent(() => import('../screens/NotFound.js'), 'NotFound'),
});

function RootLayout() {
  const title = useRouterState({
    select: (state) =>
      documentTitle(
        state.matches[state.matches.length - 1]?.routeId,
        state.matches.some((match) => match.status === 'notFound'),
      ),
  });
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
