import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False in a server render and in the browser's hydrating render, true from the render after.
 *
 * Inline `style` attributes are for the browser only: the CSP (style-src 'self') blocks a style
 * attribute written in the server's markup, and hydration would not set it again. A component
 * gives its `style` once hydrated (React then sets it through the DOM, which the CSP allows).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
