import { useEffect, useMemo, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { SignInLinks } from '../account/sign-in-links';
import { Link, useParams } from 'react-router';
import { TOKENS, type KujiBoxPlay, type KujiBoxState, type KujiDrawCount } from '../../application';
import {
  countdownSeconds,
  formatThousands,
  KUJI_ENDED_BOX_STATUSES,
  SECOND_MS,
  type KujiBox,
  type KujiOnSale,
} from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useNow } from '../hooks/use-now';
import { useObservableState } from '../hooks/use-observable-state';
import { usePreloaded } from '../ssr/preload';
import { MESSAGES } from '../messages';
import { useModals } from '../modals/modal-host';
import { useStateModal } from '../modals/use-state-modal';
import { NotFoundPage } from '../pages/not-found-page';
import { KUJI as M } from './kuji.messages';
import { imageLoading } from '../components/image-loading';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';

const boxHref = (kujiId: number, boxId: number) => `/kuji/${kujiId}/${boxId}`;

/** The kuji on sale (§7 /contents/kuji), each with its pictures and boxes. */
export function KujiListPage() {
  const catalog = useInjection(TOKENS.PrizeCatalogPort);
  const preloaded = usePreloaded<readonly KujiOnSale[]>();
  const [list, setList] = useState<readonly KujiOnSale[] | null>(preloaded ?? null);
  const [failed, setFailed] = useState(false);
  const [sent] = useState(preloaded !== undefined);
  useEffect(() => {
    // The server's render sent the list: nothing to ask for.
    if (sent) return undefined;
    let live = true;
    firstValueFrom(catalog.kujiOnSale()).then(
      (l) => {
        if (live) setList(l);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [catalog, sent]);
  return (
    <section className="kuji-list" aria-labelledby="kuji-list-title">
      <h1 id="kuji-list-title" className="prize-section__title">
        {M.listTitle}
      </h1>
      <p>{M.listLead}</p>
      {failed ? (
        <p className="page-status page-status--error" role="alert">
          {M.loadFailed}
        </p>
      ) : null}
      {list === null && !failed ? (
        <p className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {list !== null && list.length === 0 ? <p className="prize-section__empty">{M.listEmpty}</p> : null}
      <ul className="kuji-cards">
        {(list ?? []).map((k, index) => (
          <li key={k.kuji_id} className="kuji-card" data-testid="kuji-card">
            {k.kuji_img_urls[0] ? (
              // The first card's picture is the page's lead one (kujiListLeadImages): loaded at once.
              <Picture
                src={k.kuji_img_urls[0]}
                alt=""
                width={1280}
                height={400}
                layout={PICTURE_LAYOUTS.kujiCard}
                {...imageLoading(index === 0)}
              />
            ) : null}
            <h2 className="kuji-card__name">{k.kuji_name}</h2>
            <p className="kuji-card__price">{M.pricePerTicket(formatThousands(k.price))}</p>
            <ul className="kuji-card__boxes">
              {k.boxes.map((b) => (
                <li key={b.box_id}>
                  <Link className="chip" to={boxHref(k.kuji_id, b.box_id)}>
                    {M.boxChip(
                      M.boxLabel(b.box_no),
                      M.boxStatus[b.box_status] ?? b.box_status,
                      M.boxLeft(b.remaining_count, b.total_count),
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One box (§4.4): its stock, the line, the holder's countdown, the draw and its reveal. */
export function KujiBoxPage() {
  const { kujiId = '', boxId = '' } = useParams();
  const kuji = useScopedUseCase(TOKENS.KujiBoxPlay);
  const state = useObservableState(kuji.state$, kuji.snapshot);
  const valid = /^[1-9]\d{0,9}$/.test(kujiId) && /^[1-9]\d{0,9}$/.test(boxId);
  useEffect(() => {
    if (valid) void kuji.open(Number(kujiId), Number(boxId));
  }, [kuji, kujiId, boxId, valid]);
  // The reveal and the alert follow the use-case's state through the modal registry.
  const reveal = useMemo(
    () => (state.lastDraw && state.revealing ? { draw: state.lastDraw } : null),
    [state.lastDraw, state.revealing],
  );
  const alert = useMemo(
    () => (state.alert ? { message: state.alert.message, testId: 'kuji-alert' } : null),
    [state.alert],
  );
  useStateModal('kujiReveal', reveal, () => kuji.skipReveal());
  useStateModal('alert', alert, () => kuji.dismissAlert());
  if (!valid || state.phase === 'notFound') return <NotFoundPage />;
  if (state.phase === 'error')
    return (
      <p className="page-status page-status--error" role="alert">
        {M.loadFailed}
      </p>
    );
  if (!state.kuji || !state.box)
    return (
      <p className="page-status" role="status">
        {MESSAGES.loading}
      </p>
    );
  return <KujiBoxView kuji={kuji} state={state} item={state.kuji} box={state.box} />;
}

function KujiBoxView({
  kuji,
  state,
  item,
  box,
}: {
  kuji: KujiBoxPlay;
  state: KujiBoxState;
  item: KujiOnSale;
  box: KujiBox;
}) {
  const { open } = useModals();
  const ended = KUJI_ENDED_BOX_STATUSES.includes(box.box_status);
  return (
    <div className="kuji-box">
      <nav aria-label={MESSAGES.breadcrumb} className="breadcrumb">
        <ol>
          <li>
            <Link to="/">{MESSAGES.home}</Link>
          </li>
          <li>
            <Link to="/kuji">{M.listTitle}</Link>
          </li>
          <li>
            <span aria-current="page">{item.kuji_name}</span>
          </li>
        </ol>
      </nav>
      <h1 className="kuji-box__title">{item.kuji_name}</h1>
      {item.kuji_img_urls[0] ? (
        <Picture
          className="kuji-box__image"
          src={item.kuji_img_urls[0]}
          alt=""
          width={1280}
          height={400}
          layout={PICTURE_LAYOUTS.kujiBox}
        />
      ) : null}
      <p>{item.description}</p>
      <nav className="kuji-box__boxes" aria-label={M.boxLabel(box.box_no)}>
        {item.boxes.map((b) => (
          <Link
            key={b.box_id}
            className="chip"
            aria-current={b.box_id === box.box_id ? 'page' : undefined}
            to={boxHref(item.kuji_id, b.box_id)}
          >
            {M.boxChip(M.boxLabel(b.box_no), M.boxStatus[b.box_status] ?? b.box_status)}
          </Link>
        ))}
      </nav>
      <div className="kuji-box__grid">
        <section className="panel" aria-labelledby="kuji-prizes">
          <h2 id="kuji-prizes" className="panel__title">
            {M.boxChip(M.prizes, M.boxLeft(box.remaining_count, box.total_count))}
          </h2>
          <ul className="kuji-prizes">
            {box.prizes.map((p) => (
              <li key={p.rank} className="kuji-prize" data-testid="kuji-prize" data-rank={p.rank}>
                <img src={p.img_url} alt="" width={64} height={64} loading="lazy" />
                <span className="kuji-prize__text">
                  <span className="kuji-prize__rank">{p.rank}</span>{' '}
                  <span className="kuji-prize__name">{p.prize_name}</span>
                  {p.last_one ? <small className="kuji-prize__note">{M.lastOneNote}</small> : null}
                </span>
                <span className="kuji-prize__left">{M.rankLeft(p.remaining, p.quantity)}</span>
              </li>
            ))}
          </ul>
        </section>
        <section className="panel" aria-labelledby="kuji-line">
          <h2 id="kuji-line" className="panel__title">
            {M.line}
          </h2>
          <LinePanel kuji={kuji} state={state} price={item.price} box={box} ended={ended} />
          <div className="panel__actions">
            <button type="button" className="chip" onClick={() => open('kujiHistory', { draws: state.draws })}>
              {M.history}
            </button>
            <button
              type="button"
              className="chip"
              onClick={() =>
                open('kujiDetail', { kujiName: item.kuji_name, description: item.description, boxId: box.box_id })
              }
            >
              {M.fairnessTitle}
            </button>
          </div>
        </section>
      </div>
    </div>
  );
}

const COUNTS: readonly KujiDrawCount[] = [1, 3, 5, 10, 'all'];

function LinePanel({
  kuji,
  state,
  price,
  box,
  ended,
}: {
  kuji: KujiBoxPlay;
  state: KujiBoxState;
  price: number;
  box: KujiBox;
  ended: boolean;
}) {
  if (!state.signedIn) {
    return (
      <>
        <p>{M.signInToJoin}</p>
        <SignInLinks />
      </>
    );
  }
  const info = state.playInfo;
  if (!info) {
    return ended ? (
      <p>{M.boxStatus[box.box_status]}</p>
    ) : (
      <button
        type="button"
        className="button"
        disabled={state.busy}
        onClick={() => void kuji.reserve()}
        data-testid="kuji-join"
      >
        {M.join}
      </button>
    );
  }
  const holder = state.showQueue;
  const counts = COUNTS.filter((c) => (c === 'all' ? box.remaining_count > 0 : c <= box.remaining_count));
  return (
    <>
      <p className="kuji-line__status" role="status" data-testid="kuji-status">
        {holder ? M.yourTurn : M.place(info.reserve_num)}
        {holder && state.remainingSeconds !== null ? (
          <HolderCountdown
            again={info.reserve_status === 'confirm'}
            msLeft={state.remainingSeconds * SECOND_MS}
            receivedAt={state.receivedAt}
          />
        ) : null}
      </p>
      {holder ? (
        <div className="kuji-draw-buttons">
          {counts.map((c) => {
            const n = c === 'all' ? box.remaining_count : c;
            return (
              <button
                key={String(c)}
                type="button"
                className="button kuji-draw"
                disabled={state.busy}
                onClick={() => void kuji.draw(c)}
                data-testid={`kuji-draw-${c}`}
              >
                {M.draw(c === 'all' ? M.countAll : M.countLabel(c), formatThousands(n * price))}
              </button>
            );
          })}
        </div>
      ) : null}
      <button type="button" className="button button--quiet" disabled={state.busy} onClick={() => void kuji.cancel()}>
        {M.leave}
      </button>
    </>
  );
}

/** The holder's time left, counted down on the page's clock from the server's answer [R4.4-5]. */
function HolderCountdown({ again, msLeft, receivedAt }: { again: boolean; msLeft: number; receivedAt: number }) {
  const now = useNow(true);
  const seconds = countdownSeconds(msLeft, receivedAt, now);
  return <span className="kuji-line__countdown">{again ? M.drawAgainWithin(seconds) : M.drawWithin(seconds)}</span>;
}

export default KujiListPage;
