import {
  ASSIST_MAX_LEVEL,
  ASSIST_MISSES_PER_LEVEL,
  assistGauge,
  PLAY_TIMINGS,
  SECOND_MS,
  TURN_NEAR_PLACE,
} from '../../domain';
import { DocList, DocTable, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES as M, type PlayMethodNumbers } from './documents.messages';

const percent = (bonus: number): number => Math.round(bonus * 100);

/** The windows of PLAY_TIMINGS and the assist gauge's steps, as the play method quotes them. */
const NUMBERS: PlayMethodNumbers = {
  confirmSeconds: PLAY_TIMINGS.confirmMs / SECOND_MS,
  resetSeconds: PLAY_TIMINGS.resetMs / SECOND_MS,
  buttonSeconds: PLAY_TIMINGS.buttonLimitMs / SECOND_MS,
  continueSeconds: PLAY_TIMINGS.continueMs / SECOND_MS,
  graceSeconds: PLAY_TIMINGS.graceMs / SECOND_MS,
  turnNearPlace: TURN_NEAR_PLACE,
  missesPerLevel: ASSIST_MISSES_PER_LEVEL,
  bonusPercentPerLevel: percent(assistGauge(ASSIST_MISSES_PER_LEVEL).strengthBonus),
  maxLevel: ASSIST_MAX_LEVEL,
  maxBonusPercent: percent(assistGauge(ASSIST_MISSES_PER_LEVEL * ASSIST_MAX_LEVEL).strengthBonus),
};

/**
 * 遊び方 (spec §2.5 play method): the two-button crane (→ right, ↑ back, each once, held to move,
 * pressed by itself after the button limit), the confirm and continue windows and the assist
 * gauge, with the timings of the domain's PLAY_TIMINGS.
 */
export default function PlayMethodModal() {
  return (
    <DocumentModal name="playMethod">
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.playFlowHeading}</h3>
        <DocList items={M.playFlow(NUMBERS)} ordered />
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.playButtonsHeading}</h3>
        <DocList items={M.playButtons(NUMBERS)} />
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.playCameraHeading}</h3>
        <p className="document-modal__text">{M.playCamera}</p>
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.playAssistHeading}</h3>
        <p className="document-modal__text">{M.playAssist(NUMBERS)}</p>
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.playTimesHeading}</h3>
        <DocTable rows={M.playTimes(NUMBERS)} caption={M.playTimesCaption} />
      </section>
    </DocumentModal>
  );
}
