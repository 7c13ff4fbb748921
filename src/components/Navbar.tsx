import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { logout, useAuth } from '../auth/session.js';
import { startSignIn } from '../auth/signIn.js';
import { Avatar } from './Avatar.js';
import { LogoMark, PRODUCT_NAME } from './Brand.js';
import { NAV_LINKS } from './navLinks.js';

// Loaded once someone is signed in: the landing page's first load carries none of it.
const WorkspaceSwitcher = lazy(() => import('./WorkspaceSwitcher.js'));

export function Navbar() {
  const { user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // On the landing page after a login-required page sent the user there: sign-in returns to it.
  const returnTo = useRouterState({ select: (s) => (s.location.search as { returnTo?: string }).returnTo });

  // The mobile menu belongs to the page it was opened on, so it closes whenever the page changes,
  // and on Escape.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => event.key === 'Escape' && setOpenOn(null);
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const onLogout = async () => {
    setOpen(false);
    await logout();
    await navigate({ to: '/' });
  };

  return (
    <header className="navbar">
      <nav className="navbar-inner" aria-label="Main">
        <Link to="/" className="brand">
          <LogoMark />
          {PRODUCT_NAME}
        </Link>
        <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="main-menu" aria-label="Toggle menu" onClick={() => setOpen(!open)}>
          {/* Drawn, not the ☰ character: it shows as a box where no symbol font is installed. */}
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M3 5h14M3 10h14M3 15h14" />
          </svg>
        </button>
        <div id="main-menu" className={`nav-menu${open ? ' open' : ''}`}>
          <ul className="nav-links">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                {/* Active on its own pages (Home only on /), whatever the search; the Link marks it aria-current. */}
                <Link
                  to={link.to}
                  className="nav-link"
                  activeProps={{ className: 'active' }}
                  activeOptions={{ exact: link.to === '/', includeSearch: false }}
                  onClick={() => setOpen(false)}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="nav-user">
            {isAuthenticated && user ? (
              <>
                <Suspense fallback={null}>
                  <WorkspaceSwitcher />
                </Suspense>
                {/* Named by its visible text first (speech users say what they see), then what it opens. */}
                <Link to="/account" className="nav-account" onClick={() => setOpen(false)}>
                  <Avatar user={user} />
                  <span className="nav-user-name">{user.name}</span>
                  <span className="visually-hidden">(account)</span>
                </Link>
                <button type="button" className="button button-secondary" onClick={onLogout}>
                  Logout
                </button>
              </>
            ) : (
              <button type="button" className="button button-primary" onClick={() => startSignIn(returnTo)}>
                Sign in with Google
              </button>
            )}
          </div>
        </div>
      </nav>
    </header>
  );
}
