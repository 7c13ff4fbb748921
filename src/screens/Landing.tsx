import { Link, useSearch } from '@tanstack/react-router';
import { useAuth } from '../auth/session.js';
import { startSignIn } from '../auth/signIn.js';
import { DEFAULT_AFTER_SIGN_IN } from '../auth/returnTo.js';
import { DemoPlayer } from '../components/DemoPlayer.js';
import { Footer } from '../components/Footer.js';
import { useContactEmail } from '../api/site.js';

const FEATURES = [
  { title: 'Session Recording', text: 'Capture every click, scroll and page change your visitors make, then replay it like a video.' },
  { title: 'Real-time Analytics', text: 'See sessions arrive as they happen, with language, time zone and device for each visitor.' },
  { title: 'Bot Detection', text: 'Automated traffic is flagged for you, so you can filter bots out and focus on real people.' },
  { title: 'One-line Integration', text: 'Paste one script tag into your site. No build step, no configuration.' },
  { title: 'GDPR & CCPA Compliant', text: 'Inputs are masked by default and Do-Not-Track and Global Privacy Control are honoured.' },
  { title: 'Minimal Page-load Impact', text: 'A tiny async loader and compressed batches keep your pages fast.' },
];

const STEPS = [
  { title: 'Install', text: 'Create a campaign and paste its one-line script into your site.' },
  { title: 'Record', text: 'Visitor sessions are recorded automatically, with bots flagged.' },
  { title: 'Analyze', text: 'Watch replays, find friction, and improve your conversion.' },
];

/**
 * 'Get started free' stays a link to /dashboard; a signed-out visitor's click goes straight to
 * sign-in (as the Starter plan's button does) and comes back to the dashboard, instead of
 * bouncing off the login-required page.
 */
function GetStartedFree({ signedIn }: { signedIn: boolean }) {
  return (
    <Link
      to="/dashboard"
      className="button button-primary button-large"
      onClick={(event) => {
        if (signedIn || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        startSignIn(DEFAULT_AFTER_SIGN_IN);
      }}
    >
      Get started free
    </Link>
  );
}

export function Landing() {
  const { user, isAuthenticated, isLoading } = useAuth();
  const signedIn = isAuthenticated && user;
  // Sent here from a login-required page: say why, offer the sign-in.
  const { returnTo } = useSearch({ from: '/' });
  const signInNeeded = !signedIn && !isLoading && returnTo !== undefined;
  const contactEmail = useContactEmail();

  return (
    <div className="landing">
      {signInNeeded && (
        <div className="notice" role="status">
          <span>Please sign in to continue.</span>
          <button type="button" className="button button-primary button-small" onClick={() => startSignIn(returnTo)}>
            Sign in with Google
          </button>
        </div>
      )}
      <section className="hero">
        {signedIn ? (
          <>
            <span className="pill">Welcome back, {user.name}!</span>
            <h1>Ready to continue optimizing?</h1>
            <p className="lead">Your campaigns and recorded sessions are waiting for you.</p>
            <div className="actions">
              <Link to="/dashboard" className="button button-primary button-large">
                Go to Dashboard
              </Link>
              <Link to="/createCampaign" className="button button-secondary button-large">
                Create Campaign
              </Link>
            </div>
          </>
        ) : (
          <>
            <span className="pill">Launch offer: start free for 14 days</span>
            <h1>Track and replay every visitor session</h1>
            <p className="lead">See exactly how people use your website. Record sessions, replay them, and fix what stops them from converting.</p>
            <div className="actions">
              <GetStartedFree signedIn={Boolean(signedIn)} />
              <a href="#features" className="button button-secondary button-large">
                See features
              </a>
            </div>
            <p className="muted small">No credit card required • 14-day free trial</p>
          </>
        )}
      </section>

      <section className="demo-section" aria-labelledby="demo-title">
        <h2 id="demo-title">See it in action</h2>
        <p className="muted">A real recorded session, replayed right here.</p>
        <div className="demo-card">
          <DemoPlayer />
        </div>
      </section>

      <section id="features" className="section" aria-labelledby="features-title">
        <h2 id="features-title">Everything you need to understand your visitors</h2>
        <div className="card-grid">
          {FEATURES.map((feature) => (
            <article key={feature.title} className="card feature-card">
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section id="how-it-works" className="section" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="card step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section id="pricing" className="section" aria-labelledby="pricing-title">
        <h2 id="pricing-title">Simple pricing</h2>
        <div className="pricing-grid">
          <article className="card plan" aria-labelledby="plan-starter">
            <h3 id="plan-starter">Starter</h3>
            <p className="price">$0</p>
            <ul>
              <li>1,000 sessions/month</li>
              <li>Basic analytics</li>
              <li>Email support</li>
            </ul>
            {signedIn ? (
              <Link to="/dashboard" className="button button-primary">
                Go to Dashboard
              </Link>
            ) : (
              <button type="button" className="button button-primary" onClick={() => startSignIn()}>
                Get started free
              </button>
            )}
          </article>
          <article className="card plan" aria-labelledby="plan-pro">
            <h3 id="plan-pro">Pro</h3>
            <p className="price">To be announced</p>
            <ul>
              <li>Unlimited sessions</li>
              <li>Advanced analytics</li>
              <li>Priority support</li>
            </ul>
            <button type="button" className="button button-secondary" disabled>
              Coming Soon
            </button>
          </article>
        </div>
      </section>

      <section className="section cta" aria-labelledby="cta-title">
        {signedIn ? (
          <>
            <h2 id="cta-title">Ready to optimize more?</h2>
            <div className="actions">
              <Link to="/dashboard" className="button button-primary button-large">
                Go to Dashboard
              </Link>
              <Link to="/createCampaign" className="button button-secondary button-large">
                Create New Campaign
              </Link>
            </div>
          </>
        ) : (
          <>
            <h2 id="cta-title">Start recording today</h2>
            <div className="actions">
              <GetStartedFree signedIn={Boolean(signedIn)} />
            </div>
            {/* The footer has an address to contact only when the server sets CONTACT_EMAIL. */}
            {contactEmail && (
              <p>
                <a href="#contact">Have questions? Contact us</a>
              </p>
            )}
          </>
        )}
      </section>

      <Footer />
    </div>
  );
}
