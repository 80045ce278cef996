import { startTransition, useCallback, useState } from 'react';
import { useHydrated } from '../ssr/hydration-part';

/** How far ahead of the screen a deferred part renders: a screen's height, so it is there when scrolled to. */
const AHEAD = '100% 0px';

/**
 * Whether a part of the page that the server leaves out (to keep the first page small, issue 27)
 * renders now, and the ref for its element. It renders at once when not `deferred`, and when it
 * first renders after the page went live (a move inside the app); otherwise once its element comes
 * within a screen of the viewport, as a transition (scrolling stays responsive), or right after
 * hydration where the browser has no IntersectionObserver. Server and hydrating renders agree.
 */
export function useNearViewport(deferred: boolean): [boolean, (element: Element | null) => (() => void) | undefined] {
  const live = useHydrated();
  const [near, setNear] = useState(() => !deferred || live);
  const observe = useCallback(
    (element: Element | null) => {
      if (near || !element) return undefined;
      const show = () => startTransition(() => setNear(true));
      if (typeof IntersectionObserver === 'undefined') {
        show();
        return undefined;
      }
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.disconnect();
          show();
        },
        { rootMargin: AHEAD },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [near],
  );
  return [near, observe];
}
