import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Closes every modal at once (after signing out, nothing in them holds): the page's entry is
 * replaced by one with no modal, which the modal host reads as "all closed".
 */
export function useCloseAllModals(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    () => void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true }),
    [navigate, location.pathname, location.search, location.hash],
  );
}
