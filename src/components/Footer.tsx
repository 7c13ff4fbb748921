import { Link } from '@tanstack/react-router';
import { useContactEmail } from '../api/site.js';
import { LogoMark, PRODUCT_NAME } from './Brand.js';

/** The landing page's footer (#contact): the product, Privacy and Terms, and the owner's contact address when one is set. */
export function Footer() {
  const contactEmail = useContactEmail();
  return (
    <footer id="contact" className="footer">
      <p className="footer-brand">
        <LogoMark size={20} /> © {new Date().getFullYear()} {PRODUCT_NAME}
      </p>
      <nav aria-label="Legal" className="footer-links">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        {contactEmail && <a href={`mailto:${contactEmail}`}>{contactEmail}</a>}
      </nav>
    </footer>
  );
}
