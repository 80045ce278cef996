import { useCallback, useEffect, useState } from 'react';

/**
 * Whether an element is on screen now, and the ref to put on it: in the viewport (an
 * IntersectionObserver; without one, always) and in a tab that is showing. Unlike
 * useNearViewport it goes false again when the element leaves, so what it drives (a picture
 * fetched again every few seconds) stops while nobody sees it.
 */
export function useOnScreen(): [boolean, (element: Element | null) => void] {
  const [element, setElement] = useState<Element | null>(null);
  const [inView, setInView] = useState(true);
  const [shown, setShown] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  useEffect(() => {
    if (typeof document === 'undefined') return undefined;
    const onVisibility = () => setShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
  return [inView && shown, useCallback((next: Element | null) => setElement(next), [])];
}
