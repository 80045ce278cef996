import {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { TOKENS, type Features, type ModalEntry } from '../../application';
import { useContainer } from '../di/container-context';
import { MESSAGES } from '../messages';
import { MODALS, type ModalComponentProps, type ModalDefinition, type ModalName, type OpenModal } from './registry';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

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
      {main ? (
        <ModalShell entry={main} level="main" open={open} swap={swap} close={close} covered={sub !== null} />
      ) : null}
      {sub ? <ModalShell entry={sub} level="sub" open={open} swap={swap} close={close} covered={false} /> : null}
    </>
  );
}

function ModalShell({
  entry,
  level,
  open,
  swap,
  close,
  covered,
}: {
  entry: ModalEntry;
  level: 'main' | 'sub';
  open: OpenModal;
  swap: OpenModal;
  close: () => void;
  covered: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const definition = MODALS[entry.name as ModalName] as ModalDefinition<unknown> | undefined;
  const container = useContainer();
  const features = container.isBound(TOKENS.Features) ? container.get<Features>(TOKENS.Features) : null;
  // Focus moves into the dialog, unless a field of the modal took it already (autoFocus: the modal's
  // code may arrive in the same commit as its frame), and goes back where it was (read when the
  // frame first renders) once the dialog has left the page (not on StrictMode's trial unmount).
  const [previous] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.contains(document.activeElement)) dialog.focus();
    return () => {
      if (!dialog?.isConnected) previous?.focus?.();
    };
  }, [previous]);
  // Every dialog has a name [axe aria-dialog-name]: unless the modal names itself (useDialogName),
  // it is named after its first heading, and again when its content changes (a lazy load, a step).
  useEffect(() => {
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
  // Escape also closes the top modal when focus has fallen out of it (its content was replaced).
  useEffect(() => {
    if (covered) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !ref.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [covered, close]);
  if (!definition) return null;
  const Component = modalComponent(definition, features) as unknown as ComponentType<ModalComponentProps<unknown>>;
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (covered) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div
      className={`dialog-backdrop dialog-backdrop--${level}`}
      onClick={(e) => e.target === e.currentTarget && !covered && close()}
    >
      <div
        ref={ref}
        className="dialog modal"
        role={definition.role}
        aria-modal="true"
        tabIndex={-1}
        data-testid={`modal-${entry.name}`}
        data-level={level}
        onKeyDown={onKeyDown}
        inert={covered || undefined}
      >
        <Suspense fallback={<p role="status">{MESSAGES.loading}</p>}>
          <Component props={entry.props} close={close} open={open} swap={swap} />
        </Suspense>
        <button type="button" className="modal__close" aria-label={MESSAGES.close} onClick={close}>
          ×
        </button>
      </div>
    </div>
  );
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
