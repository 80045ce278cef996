import { useLocation } from 'react-router';

/** `?next=` back to where the visitor is now (never to a sign-in page itself). */
export function useNextQuery(): string {
  const { pathname, search, hash } = useLocation();
  if (['/login', '/signup', '/password-reset'].includes(pathname)) return '';
  return `?next=${encodeURIComponent(`${pathname}${search}${hash}`)}`;
}
