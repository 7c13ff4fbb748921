import { Link, useRouter } from '@tanstack/react-router';

export function NotFound() {
  const router = useRouter();
  return (
    <div className="page page-narrow center not-found">
      <p className="big-code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="muted">The page you are looking for does not exist or has been moved.</p>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => void router.navigate({ to: '/' })}>
          Go Home
        </button>
        {/* A tab opened on this address has nowhere to go back to: home, rather than a blank page. */}
        <button
          type="button"
          className="button button-secondary"
          onClick={() => (router.history.canGoBack() ? router.history.back() : void router.navigate({ to: '/' }))}
        >
          Go Back
        </button>
      </div>
      <nav aria-label="Helpful links" className="footer-links">
        <Link to="/dashboard">Dashboard</Link>
        <Link to="/createCampaign">Create Campaign</Link>
        <Link to="/">Home</Link>
      </nav>
    </div>
  );
}
