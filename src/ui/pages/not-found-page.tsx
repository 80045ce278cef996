import { useLocation } from 'react-router';
import { MESSAGES } from '../messages';

/** The error page of spec §2.6 for a path no route matches. */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <div className="error-page">
      <h1 className="error-page__heading">{MESSAGES.notFoundHeading}</h1>
      <p>{MESSAGES.notFoundText}</p>
      <p className="error-page__path" lang="en">Page Not Found {location.pathname}</p>
      <a className="button" href="/">{MESSAGES.backToHome}</a>
    </div>
  );
}

export default NotFoundPage;
