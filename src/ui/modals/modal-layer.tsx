import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import { TOKENS, type Features, type ModalEntry } from '../../application';
import { useContainer } from '../di/container-context';
import { MESSAGES } from '../messages';
import { MODALS, type ModalComponentProps, type ModalDefinition, type ModalName, type OpenModal } from './registry';

export interface ModalLayerProps {
  readonly main: ModalEntry | null;
  readonly sub: ModalEntry | null;
  readonly open: OpenModal;
  readonly swap: OpenModal;
  readonly close: () => void;
}

/** The open modals' frames (ModalHost renders this, its own chunk, while a modal is open). */
export default function ModalLayer({ main, sub, open, swap, close }: ModalLayerProps) {
  return (
    <>
      {main ? <ModalShell entry={main} level="main" open={open} swap={swap} close={close} /> : null}
      {sub ? <ModalShell entry={sub} level="sub" open={open} swap={swap} close={close} /> : null}
    </>
  );
}

/**
 * One modal's frame: a native `<dialog>` opened with `showModal()`, so the browser keeps the focus
 * inside it, makes the rest of the page (and a main modal under a sub-modal) inert, and turns
 * Escape into a `cancel` event on the top dialog only. Escape, the close button and a click on the
 * backdrop close it through the stack (and its history entry): the dialog leaves the page with the
 * stack's state, never by closing itself.
 */
function ModalShell({
  entry,
  level,
  open,
  swap,
  close,
}: {
  entry: ModalEntry;
  level: 'main' | 'sub';
  open: OpenModal;
  swap: OpenModal;
  close: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const definition = MODALS[entry.name as ModalName] as ModalDefinition<unknown> | undefined;
  const container = useContainer();
  const features = container.isBound(TOKENS.Features) ? container.get<Features>(TOKENS.Features) : null;
  // The modal's content renders once the dialog is open: a field that focuses itself as it mounts
  // (autoFocus) could not take the focus inside a dialog that is not shown yet.
  const [shown, setShown] = useState(false);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      dialog.showModal();
      // The dialog itself, not its first control, so its name is what is announced first.
      dialog.focus();
    }
    setShown(true);
  }, []);
  // The browser gives the focus back when a dialog is closed, not when it is removed, which is how
  // a modal leaves: it goes back where it was (read when the frame first renders) once the dialog
  // has left the page (not on StrictMode's trial unmount).
  const [previous] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (!dialog?.isConnected) previous?.focus?.();
    };
  }, [previous]);
  // Every dialog has a name [axe aria-dialog-name]: unless the modal names itself (useDialogName),
  // it is named after its first heading, and again when its content changes (a lazy load, a step).
  // A layout effect, like useDialogName's: the name comes in the commit that shows the content.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const name = () => {
      if (dialog.hasAttribute('aria-label')) return;
      const current = dialog.getAttribute('aria-labelledby');
      if (current && dialog.ownerDocument.getElementById(current)) return;
      const heading = dialog.querySelector<HTMLElement>('h1, h2, h3, [role="heading"]');
      if (!heading) return;
      heading.id ||= `modal-${level}-title`;
      dialog.setAttribute('aria-labelledby', heading.id);
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(dialog, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [level]);
  if (!definition) return null;
  const Component = modalComponent(definition, features) as unknown as ComponentType<ModalComponentProps<unknown>>;
  return (
    <dialog
      ref={ref}
      className="dialog modal"
      role={definition.role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      tabIndex={-1}
      data-testid={`modal-${entry.name}`}
      data-level={level}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => isBackdropClick(e) && close()}
    >
      {shown ? (
        <>
          <Suspense fallback={<p role="status">{MESSAGES.loading}</p>}>
            <Component props={entry.props} close={close} open={open} swap={swap} />
          </Suspense>
          <button type="button" className="modal__close" aria-label={MESSAGES.close} onClick={close}>
            ×
          </button>
        </>
      ) : null}
    </dialog>
  );
}

/** A click on a modal dialog's backdrop reaches the dialog itself, outside its box. */
function isBackdropClick(e: ReactMouseEvent<HTMLDialogElement>): boolean {
  if (e.target !== e.currentTarget) return false;
  const box = e.currentTarget.getBoundingClientRect();
  return e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom;
}

/** Per features loader, each modal's component gated on its features (stable, so a modal never remounts). */
const gatedModals = new WeakMap<Features, Map<ModalDefinition<unknown>, ComponentType<ModalComponentProps<unknown>>>>();

/** A modal's component: its lazily loaded file, after the features it takes from the container. */
function modalComponent(
  definition: ModalDefinition<unknown>,
  features: Features | null,
): ComponentType<ModalComponentProps<unknown>> {
  if (!features || definition.features.length === 0) return definition.component;
  let byModal = gatedModals.get(features);
  if (!byModal) gatedModals.set(features, (byModal = new Map()));
  let gated = byModal.get(definition);
  if (!gated) {
    gated = lazy(async () => {
      await features.load(definition.features);
      return definition.load();
    });
    byModal.set(definition, gated);
  }
  return gated;
}
