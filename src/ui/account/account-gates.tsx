import { useMemo, useState } from 'react';
import { TOKENS } from '../../application';
import type { AdditionalKey } from '../../domain';
import { useInjection } from '../di/container-context';
import { useModals } from '../modals/modal-host';
import { useStateModal } from '../modals/use-state-modal';
import { ACCOUNT_SHELL as A } from './account-shell.messages';
import { useAccountFlags } from './use-account-flags';

const NO_PROPS = {};

/**
 * What the layout asks of a signed-in player before anything else: the terms agreement while the
 * account has not agreed (a dialog; declining signs out, closing asks again later), then the first-profile prompt [R4.7-3] as
 * a banner above the page (not a dialog: it must not stand between a player and a play). A page
 * whose controls must stay in reach (a play screen, `banner` false) shows no banner: on a desktop
 * it pushed the crane buttons below the fold.
 */
export function AccountGates({ banner = true }: { readonly banner?: boolean }) {
  const view = useAccountFlags();
  const terms = useMemo(() => (view?.termsPending ? NO_PROPS : null), [view?.termsPending]);
  // Closed without an answer (Escape, another page): asked again on the next visit; only the decline button signs out.
  useStateModal('terms', terms, () => undefined);
  const [later, setLater] = useState(false);
  const { open } = useModals();
  if (!banner || !view || view.termsPending || !view.profilePrompt || later) return null;
  return (
    <aside className="account-banner" aria-labelledby="profile-prompt-title" data-testid="profile-prompt-banner">
      <p id="profile-prompt-title" className="account-banner__title">
        {A.profilePromptTitle}
      </p>
      <p className="account-banner__text">{A.profilePromptLead}</p>
      <div className="account-banner__actions">
        <button type="button" className="button" onClick={() => open('profile', { prompt: true })}>
          {A.profileRegister}
        </button>
        <button type="button" className="button button--quiet" onClick={() => setLater(true)}>
          {A.later}
        </button>
      </div>
    </aside>
  );
}

const TUTORIALS = { tutorial_top: A.tutorialTop, tutorial_play: A.tutorialPlay } as const;

/**
 * A page's short guide, shown once to a signed-in player (user_additional tutorial_top /
 * tutorial_play): a card above the page with its steps; closing it stores that it was seen.
 */
export function Tutorial({ name }: { readonly name: AdditionalKey }) {
  const flags = useInjection(TOKENS.AccountFlags);
  const view = useAccountFlags();
  const [closed, setClosed] = useState(false);
  const [step, setStep] = useState(0);
  if (!view || closed || view.termsPending || !view.tutorialsDue.includes(name)) return null;
  const guide = TUTORIALS[name];
  const lastStep = step === guide.steps.length - 1;
  return (
    <aside className="tutorial" aria-labelledby={`${name}-title`} data-testid={`tutorial-${name}`}>
      <p id={`${name}-title`} className="tutorial__title">
        {guide.title} <span className="tutorial__step">{A.tutorialStep(step + 1, guide.steps.length)}</span>
      </p>
      <p className="tutorial__text" aria-live="polite">
        {guide.steps[step]}
      </p>
      <div className="tutorial__actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            if (!lastStep) {
              setStep((s) => s + 1);
              return;
            }
            setClosed(true);
            void flags.tutorialSeen(name).catch(() => undefined);
          }}
        >
          {lastStep ? A.tutorialDone : A.tutorialNext}
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            setClosed(true);
            void flags.tutorialSeen(name).catch(() => undefined);
          }}
        >
          {A.tutorialSkip}
        </button>
      </div>
    </aside>
  );
}
