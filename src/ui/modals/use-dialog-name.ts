import { useLayoutEffect, type RefObject } from 'react';

/**
 * Names the modal host's dialog element after an element of the modal (its title or its text),
 * unless the host already gave it a name: screen readers then announce what the dialog is.
 * A layout effect: the name is there in the same commit as the content. A passive effect left a
 * window (a lazily loaded modal commits outside any act) in which the dialog was shown unnamed.
 */
export function useDialogName(inside: RefObject<HTMLElement | null>, labelId: string): void {
  useLayoutEffect(() => {
    const dialog = inside.current?.closest('dialog');
    if (!dialog || dialog.hasAttribute('aria-labelledby') || dialog.hasAttribute('aria-label')) return undefined;
    dialog.setAttribute('aria-labelledby', labelId);
    return () => {
      if (dialog.getAttribute('aria-labelledby') === labelId) dialog.removeAttribute('aria-labelledby');
    };
  }, [inside, labelId]);
}
