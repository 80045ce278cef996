import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { pageTitle } from '../../domain';
import { MESSAGES } from '../messages';

/** Keeps the document title in step with the route [R7-13] (an effect, so server rendering sets it apart). */
function usePageTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);
}

/** The 'default' layout: header with the service logo, the page, and the footer. */
export function DefaultLayout() {
  usePageTitle();
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
