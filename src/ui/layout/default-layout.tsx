import { Outlet } from 'react-router';
import { MESSAGES } from '../messages';

/** The 'default' layout: header with the service logo, the page, and the footer. */
export function DefaultLayout() {
  return (
    <div className="layout">
      <header className="site-header">
        <a className="site-header__logo" href="/" aria-label={MESSAGES.home}>
          <span className="site-header__mark" aria-hidden="true">◎</span>
          <span className="site-header__name">{MESSAGES.serviceName}</span>
          <span className="site-header__tagline">{MESSAGES.serviceTagline}</span>
        </a>
      </header>
      <main className="layout__main">
        <Outlet />
      </main>
      <footer className="site-footer">{MESSAGES.copyright}</footer>
    </div>
  );
}
