/**
 * jsdom has no modal dialogs (its HTMLDialogElement has neither showModal nor close): enough of the
 * browser's for the UI tests. showModal and close set and clear `open` (close fires `close`), and
 * Escape, unless a handler took it, sends the top modal dialog a cancelable `cancel` event and
 * closes it when nothing prevents that. Focus, the top layer and inertness are left to browsers.
 */
export function installModalDialogs(window: Window & typeof globalThis): void {
  const proto = window.HTMLDialogElement.prototype;
  if ('showModal' in proto) return;
  /** Open modal dialogs, the top one last. */
  const modals: HTMLDialogElement[] = [];
  Object.assign(proto, {
    showModal(this: HTMLDialogElement) {
      if (this.open) throw new window.DOMException('The dialog is already open.', 'InvalidStateError');
      this.open = true;
      modals.push(this);
    },
    close(this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      modals.splice(modals.indexOf(this), 1);
      this.dispatchEvent(new window.Event('close'));
    },
  });
  window.document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const top = modals.filter((d) => d.open && d.isConnected).at(-1);
    if (top?.dispatchEvent(new window.Event('cancel', { cancelable: true }))) top.close();
  });
}
