import { useRef, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { STOREFRONT_NOTICES } from '../storefront.messages';
import type { ModalComponentProps } from './registry';
import { useDialogName } from './use-dialog-name';
import { SpendingLimitSection } from '../purchase/spending-limit-section';

/** Settings (spec §2.5 config): sound and hide-character, saved as 1 or 0 for a signed-in player [R5-1]. */
export default function ConfigModal({ close }: ModalComponentProps<Record<never, never>>) {
  const account = useInjection(TOKENS.AccountPort);
  const session = useInjection(TOKENS.SessionPort);
  const notices = useInjection(TOKENS.Notices);
  const saved = () => notices.show(STOREFRONT_NOTICES.settingsSaved);
  const [sound, setSound] = useState(true);
  const [hidden, setHidden] = useState(false);
  const signedIn = session.current() !== null;
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'config-title');
  return (
    <div ref={ref} className="modal__body">
      <h2 id="config-title" className="dialog__title">
        {MESSAGES.configTitle}
      </h2>
      <label className="switch">
        <input
          type="checkbox"
          checked={sound}
          onChange={(e) => {
            setSound(e.target.checked);
            if (signedIn)
              void firstValueFrom(account.setVolume(e.target.checked)).then(saved, () =>
                notices.show(STOREFRONT_NOTICES.settingsFailed),
              );
          }}
        />
        <span>{MESSAGES.sound}</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={hidden}
          onChange={(e) => {
            setHidden(e.target.checked);
            if (signedIn)
              void firstValueFrom(account.setHideCharacter(e.target.checked)).then(saved, () =>
                notices.show(STOREFRONT_NOTICES.settingsFailed),
              );
          }}
        />
        <span>{MESSAGES.hideCharacter}</span>
      </label>
      {signedIn ? <SpendingLimitSection /> : null}
      <button type="button" className="button" onClick={close}>
        {MESSAGES.close}
      </button>
    </div>
  );
}
