import { useEffect, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { TOKENS } from '../../application';
import { verifyKujiBox, type KujiFairnessRecord } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { KUJI as M } from '../kuji/kuji.messages';
import type { ModalComponentProps } from './registry';

/**
 * Kuji detail (spec §2.5): the kuji's description and its box's fairness — the commitment published
 * when the box opened, the tickets drawn so far, and once the box ended the seed, checked here in the
 * browser with the domain's verifyKujiBox (docs/kuji.md).
 */
export default function KujiDetailModal({
  props,
}: ModalComponentProps<{ readonly kujiName: string; readonly description: string; readonly boxId: number }>) {
  const kujiPlay = useInjection(TOKENS.KujiPlayPort);
  const [record, setRecord] = useState<KujiFairnessRecord | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    firstValueFrom(kujiPlay.kujiFairness(props.boxId)).then(
      (r) => {
        if (live) setRecord(r);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [kujiPlay, props.boxId]);
  const check = record?.seed
    ? verifyKujiBox({
        boxId: record.box_id,
        seed: record.seed,
        commitment: record.commitment,
        stock: record.stock,
        draws: record.draws,
      })
    : null;
  return (
    <div className="modal__body modal__body--scroll kuji-detail">
      <h2 className="dialog__title">{M.detail}</h2>
      <h3>{props.kujiName}</h3>
      <p>{props.description}</p>
      <h3>{M.fairnessTitle}</h3>
      <p>{M.fairnessLead}</p>
      {failed ? <p role="alert">{M.loadFailed}</p> : null}
      {!record && !failed ? <p role="status">{MESSAGES.loading}</p> : null}
      {record ? (
        <dl className="kuji-detail__facts">
          <dt>{M.commitment}</dt>
          <dd className="kuji-detail__hash" data-testid="kuji-commitment">
            {record.commitment}
          </dd>
          <dt>{M.seed}</dt>
          <dd className="kuji-detail__hash" data-testid="kuji-seed">
            {record.seed ?? M.seedHidden}
          </dd>
          <dt>{M.drawnLabel}</dt>
          <dd>{M.drawnCount(record.draws.length)}</dd>
        </dl>
      ) : null}
      {check ? (
        <p role="status" data-testid="kuji-verified" data-ok={check.ok ? 1 : 0}>
          {check.ok ? M.verified : M.verifyFailed}
        </p>
      ) : null}
    </div>
  );
}
