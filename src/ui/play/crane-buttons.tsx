import { useEffect, useState } from 'react';
import { TOKENS, type CranePlay, type CranePlayState } from '../../application';
import type { CraneButton } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';

/** The two buttons, held by touch, mouse or keyboard (→ / ↑ keys, or Space on the focused button). */
export function CraneButtons({ crane: play, run }: { crane: CranePlay; run: CranePlayState }) {
  const mine = run.play?.phase === 'playing' ? run.play : null;
  const usable = mine && run.machine ? run.machine.button : null;
  const modals = useInjection(TOKENS.ModalStack);
  useEffect(() => {
    if (!mine) return undefined;
    const keyOf = (e: KeyboardEvent): CraneButton | null =>
      e.key === 'ArrowRight' ? 'right' : e.key === 'ArrowUp' ? 'back' : null;
    const down = (e: KeyboardEvent) => {
      const button = keyOf(e);
      // While a modal is open the arrow keys belong to it (scrolling, its own controls), not the crane.
      if (!button || modals.depth > 0) return;
      e.preventDefault();
      if (!e.repeat) play.press(button);
    };
    const up = (e: KeyboardEvent) => {
      const button = keyOf(e);
      if (!button) return;
      e.preventDefault();
      play.release(button);
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [play, mine, modals]);
  if (!mine) return null;
  return (
    <div className="crane-buttons" data-testid="crane-buttons">
      <HoldButton button="right" label={MESSAGES.buttonRight} enabled={usable === 'right'} play={play} />
      <HoldButton button="back" label={MESSAGES.buttonBack} enabled={usable === 'back'} play={play} />
    </div>
  );
}

/** One crane button: pressed while held (pointer captured, so sliding off still releases it). */
function HoldButton({
  button,
  label,
  enabled,
  play,
}: {
  button: CraneButton;
  label: string;
  enabled: boolean;
  play: CranePlay;
}) {
  const [held, setHeld] = useState(false);
  const press = () => {
    if (!enabled) return;
    setHeld(true);
    play.press(button);
  };
  const release = () => {
    if (!held) return;
    setHeld(false);
    play.release(button);
  };
  return (
    <button
      type="button"
      className={`crane-button crane-button--${button}`}
      data-testid={`button-${button}`}
      data-held={held}
      disabled={!enabled && !held}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        press();
      }}
      onPointerUp={release}
      onPointerCancel={release}
      onLostPointerCapture={release}
      onKeyDown={(e) => {
        if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
          e.preventDefault();
          press();
        }
      }}
      onKeyUp={(e) => {
        if (e.key === ' ' || e.key === 'Enter') release();
      }}
      onContextMenu={(e) => e.preventDefault()}
    >
      {label}
    </button>
  );
}
