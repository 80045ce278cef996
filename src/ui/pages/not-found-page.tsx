import { useLocation } from 'react-router';
import { TOKENS } from '../../application';
import { fullPathOf, serviceHomeHref } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { useMarkNotFound } from '../ssr/preload';

/**
 * The error page of spec §2.6 [R2.6-1…R2.6-3, R2.1-5, R8-11]: the heading, the text, a link to the
 * service home (base address, then '/'), an illustration of our mascot, and 'Page Not Found' with
 * the full path. The layout around it brings the header and the footer with the company logo.
 */
export function NotFoundPage() {
  useMarkNotFound();
  const location = useLocation();
  const { topPageBaseUrl } = useInjection(TOKENS.AppConfig);
  return (
    <div className="error-page" data-testid="error-page">
      <svg
        className="error-page__illustration"
        viewBox="0 0 160 120"
        width="160"
        height="120"
        role="img"
        aria-label={MESSAGES.notFoundIllustration}
      >
        <rect x="30" y="70" width="100" height="40" rx="8" fill="#f6e3eb" />
        <ellipse cx="80" cy="62" rx="34" ry="30" fill="#ffd6e5" stroke="#d6336c" strokeWidth="3" />
        <circle cx="68" cy="56" r="4" fill="#3a2a3a" />
        <circle cx="92" cy="56" r="4" fill="#3a2a3a" />
        <path d="M70 74 q10 -8 20 0" stroke="#3a2a3a" strokeWidth="3" fill="none" />
        <path
          d="M80 8 v18 M66 26 h28 M68 26 l-6 14 M92 26 l6 14"
          stroke="#8f8fa8"
          strokeWidth="4"
          fill="none"
          strokeLinecap="round"
        />
      </svg>
      <h1 className="error-page__heading">{MESSAGES.notFoundHeading}</h1>
      <p>{MESSAGES.notFoundText}</p>
      <p className="error-page__path" lang="en" data-testid="error-path">
        Page Not Found {fullPathOf(location)}
      </p>
      <a className="button" href={serviceHomeHref(topPageBaseUrl)} data-testid="home-link">
        {MESSAGES.backToHome}
      </a>
    </div>
  );
}

export default NotFoundPage;
