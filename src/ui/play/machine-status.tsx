import type { ReactNode } from 'react';
import type { CranePlayState } from '../../application';
import { countdownSeconds } from '../../domain';
import { useNow } from '../hooks/use-now';
import { MESSAGES } from '../messages';

/**
 * The line above the crane buttons: resetting, the away grace, the claw dropping, or the seconds
 * left before the button moves by itself; another player's play when it is not the player's.
 */
export function MachineStatus({ run }: { run: CranePlayState }) {
  const play = run.play;
  const now = useNow(play?.phase === 'playing');
  let text: ReactNode = null;
  if (play?.phase === 'resetting') text = MESSAGES.resetting;
  else if (play?.phase === 'playing') {
    const grace = countdownSeconds(play.grace_ms_left, run.receivedAt, now);
    if (grace !== null) text = MESSAGES.away(grace);
    else if (play.machine.button === null) text = MESSAGES.dropping;
    else {
      const s = countdownSeconds(play.machine.button_ms_left, run.receivedAt, now);
      text = s === null ? MESSAGES.buttonHint : MESSAGES.buttonCountdown(s);
    }
  } else if (!play && run.othersPlaying) text = MESSAGES.othersPlaying;
  return text ? (
    <p className="machine-status" role="status" data-testid="machine-status">
      {text}
    </p>
  ) : null;
}
