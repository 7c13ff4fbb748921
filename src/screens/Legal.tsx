import type { ReactNode } from 'react';
import { useContactEmail } from '../api/site.js';
import { PRODUCT_NAME } from '../components/Brand.js';

// Privacy and Terms: what this self-hosted server does with data, in plain words. The person who
// runs the server is responsible for it; these pages say what the software does, nothing more.

function ContactLine() {
  const contactEmail = useContactEmail();
  return contactEmail ? (
    <p>
      Questions go to the people who run this server: <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
    </p>
  ) : (
    <p>Questions go to the people who run this server.</p>
  );
}

function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page page-narrow legal">
      <h1>{title}</h1>
      {children}
      <ContactLine />
    </div>
  );
}

export function Privacy() {
  return (
    <LegalPage title="Privacy">
      <p>{PRODUCT_NAME} is self-hosted: everything below is stored on this server and its database, run by its owner, and sent to no other service.</p>
      <h2>Site owners (you, when you sign in)</h2>
      <p>
        Your name, email address and picture from sign-in, and the campaigns you create. Logging out ends the session and wipes this device's saved copy of your
        data.
      </p>
      <h2>Visitors of sites that install a campaign's script</h2>
      <ul>
        <li>What the page showed and how the visitor moved, clicked and scrolled, so the session can be replayed.</li>
        <li>Every input field is masked: typed text, passwords and form values are never recorded.</li>
        <li>The IP address, the country derived from it on this server, language, time zone, browser, operating system and device.</li>
        <li>What the site itself tells the recorder: the visitor's user id and traits, tags and named events (the site decides what it sends).</li>
        <li>
          Each campaign sets how much page text is masked, which elements are never recorded, which pages are recorded, and whether recording waits for the
          visitor's consent.
        </li>
        <li>Nothing is recorded when the visitor's browser sends Do-Not-Track or Global Privacy Control.</li>
        <li>The site owner can export or erase every session of one identified visitor.</li>
      </ul>
    </LegalPage>
  );
}

export function Terms() {
  return (
    <LegalPage title="Terms">
      <p>This server runs {PRODUCT_NAME}, open-source software under the MIT licence, provided as is, without warranty of any kind.</p>
      <p>
        Install a campaign's script only on sites you run, and tell their visitors that sessions are recorded, as the privacy law that applies to your site
        requires.
      </p>
    </LegalPage>
  );
}
