/**
 * <onkure-station station-id="12" api-base="https://onkure.example/api/">: a station for a partner's
 * page, built on the onkure package alone (no React): the live picture, the station's status, the
 * places taken in its line (pushed as they change) and a link to play on the service. Its markup and
 * style live in a shadow root, so the host page's CSS neither reaches it nor is reached by it.
 *
 * Attributes: station-id (required), api-base (the service's API, default /api/ on this page's
 * origin), play-url (where the link goes, default /game/{id} on the API's origin).
 */
import { concatMap, distinctUntilChanged, EMPTY, filter, map, of, type Subscription } from 'rxjs';
import { TOKENS } from 'onkure/application';
import type { StationLiveState } from 'onkure/domain';
import { createOnkureClient } from 'onkure/infrastructure';

const TEXT = {
  status: { open: '営業中', stop: '停止中', maintenance: 'メンテナンス中' } as Record<string, string>,
  playing: 'プレイ中',
  waiting: (n: number) => `待ち ${n}人`,
  picture: (name: string) => `${name}のライブ映像`,
  station: (id: number) => `ステーション ${id}`,
  play: 'このステーションで遊ぶ',
  loading: '読み込み中…',
  unavailable: 'このステーションは表示できません',
};

const STYLE = `
:host { display: block; max-width: 360px; font-family: system-ui, 'Noto Sans CJK JP', sans-serif; color: #2b1d2b; }
figure { margin: 0; border-radius: 12px; overflow: hidden; background: #fff; box-shadow: 0 1px 4px rgb(0 0 0 / 0.15); }
.picture { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: #e9e1ea; }
figcaption { padding: 10px 12px 12px; display: grid; gap: 6px; }
.name { font-weight: 700; font-size: 15px; line-height: 1.4; }
.numbers { display: flex; gap: 8px; flex-wrap: wrap; font-size: 14px; }
.badge { border-radius: 999px; padding: 2px 10px; background: #f3e9f4; }
.badge[data-status='open'] { background: #dff3e4; color: #0d5c2b; }
.badge[data-status='maintenance'], .badge[data-status='stop'] { background: #f6e0e0; color: #8a1c1c; }
a { display: block; text-align: center; padding: 10px; border-radius: 8px; background: #c2185b; color: #fff; font-weight: 700; text-decoration: none; }
a:focus-visible { outline: 3px solid #2b1d2b; outline-offset: 2px; }
`;

export class OnkureStation extends HTMLElement {
  static readonly observedAttributes = ['station-id', 'api-base', 'play-url'];
  private readonly root = this.attachShadow({ mode: 'open' });
  private running: { readonly stop: () => void } | null = null;

  connectedCallback(): void {
    this.start();
  }

  disconnectedCallback(): void {
    this.running?.stop();
    this.running = null;
  }

  attributeChangedCallback(): void {
    if (!this.isConnected) return;
    this.running?.stop();
    this.start();
  }

  private start(): void {
    const stationId = Number(this.getAttribute('station-id'));
    const apiBase = new URL(this.getAttribute('api-base') ?? '/api/', document.baseURI).toString();
    const playUrl = this.getAttribute('play-url') ?? new URL(`/game/${stationId}`, apiBase).toString();
    this.root.innerHTML = `<style>${STYLE}</style>
      <figure>
        <img class="picture" part="picture" alt="" data-tick="0">
        <figcaption>
          <span class="name" part="name"></span>
          <span class="numbers"><span class="badge status" role="status"></span><span class="badge line" aria-live="polite"></span></span>
          <a part="play" target="_blank" rel="noopener"></a>
        </figcaption>
      </figure>`;
    const picture = this.root.querySelector<HTMLImageElement>('.picture')!;
    const name = this.root.querySelector<HTMLElement>('.name')!;
    const status = this.root.querySelector<HTMLElement>('.status')!;
    const line = this.root.querySelector<HTMLElement>('.line')!;
    const link = this.root.querySelector<HTMLAnchorElement>('a')!;
    const title = TEXT.station(stationId);
    name.textContent = title;
    picture.alt = TEXT.picture(title);
    status.textContent = TEXT.loading;
    link.textContent = TEXT.play;
    link.href = playUrl;
    if (!Number.isInteger(stationId) || stationId <= 0) {
      status.textContent = TEXT.unavailable;
      this.running = { stop: () => undefined };
      return;
    }

    const client = createOnkureClient({ apiBase });
    const feed = client.get(TOKENS.LiveFeed);
    const catalog = client.get(TOKENS.PrizeCatalogPort);
    const subscriptions: Subscription[] = [];
    const unavailable = (why: unknown) => {
      status.textContent = TEXT.unavailable;
      console.warn(`onkure-station ${stationId}:`, why);
    };

    // The picture: the feed's stills (the service's jpg mode), a new one as each arrives.
    subscriptions.push(
      client
        .get(TOKENS.PlayPort)
        .stationInfo(stationId)
        .subscribe({
          next: (outcome) => {
            if (outcome.kind === 'info') feed.start(outcome.info, 'jpg');
            else unavailable(outcome);
          },
          error: unavailable,
        }),
      feed.state$
        .pipe(
          map((s) => s.cameras.front),
          distinctUntilChanged((a, b) => a.still === b.still),
        )
        .subscribe((front) => {
          if (front.still === null) return;
          picture.src = front.still;
          picture.dataset.tick = String(front.stillTick);
          picture.style.filter = front.filter.css;
        }),
    );

    // The prize's name, from the catalogue (a guest's read).
    subscriptions.push(
      catalog.topPage({ shopId: 1 }).subscribe({
        next: (top) => {
          const station = top.sale_list.flatMap((row) => row.list).find((s) => s.station_id === stationId);
          if (station) {
            name.textContent = station.prize_name;
            picture.alt = TEXT.picture(station.prize_name);
          }
        },
        error: () => undefined,
      }),
    );

    // The numbers: read once the top channel is joined (and after each reconnection), then pushed.
    subscriptions.push(
      client
        .get(TOKENS.RealtimePort)
        .channel({ kind: 'top' })
        .pipe(
          concatMap((event) => {
            if (event.type === 'joined') return catalog.lobby();
            if (event.type === 'list') return of(event.stations);
            if (event.type === 'maintenance' && event.stationId === stationId) return catalog.lobby();
            return EMPTY;
          }),
          map((stations) => stations.find((s) => s.station_id === stationId)),
          filter((s): s is StationLiveState => s !== undefined),
        )
        .subscribe({
          next: (s) => {
            status.dataset.status = s.station_status;
            status.textContent = `${TEXT.status[s.station_status] ?? s.station_status}${s.playing ? `・${TEXT.playing}` : ''}`;
            line.textContent = TEXT.waiting(s.reserve_count ?? 0);
            line.dataset.count = String(s.reserve_count ?? 0);
          },
          error: unavailable,
        }),
    );

    this.running = {
      stop: () => {
        for (const subscription of subscriptions) subscription.unsubscribe();
        feed.dispose();
      },
    };
  }
}

if (!customElements.get('onkure-station')) customElements.define('onkure-station', OnkureStation);
