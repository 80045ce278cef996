import type { PlayerSettings } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';

/** The player's switches on the play screen: sound and hide the character [R5-1]. */
export function SettingsPanel({ settings }: { settings: PlayerSettings }) {
  const state = useObservableState(settings.state$, settings.snapshot);
  return (
    <section className="panel settings">
      <label className="switch">
        <input type="checkbox" checked={state.sound} onChange={(e) => void settings.setSound(e.target.checked)} />
        <span>{MESSAGES.sound}</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={state.hideCharacter}
          onChange={(e) => void settings.setHideCharacter(e.target.checked)}
        />
        <span>{MESSAGES.hideCharacter}</span>
      </label>
    </section>
  );
}
