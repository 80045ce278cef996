import { concatMap, EMPTY, of } from 'rxjs';
import { TOKENS } from 'onkure/application';
import { createOnkureClient } from 'onkure/infrastructure';

/** <minimal-station station-id="1" api-base="https://onkure.example/api/">: a picture, a line, a link. */
class MinimalStation extends HTMLElement {
  private stop = () => {};

  connectedCallback() {
    const id = Number(this.getAttribute('station-id'));
    const apiBase = this.getAttribute('api-base') ?? '/api/';
    this.innerHTML = `<img alt="ステーション ${id}のライブ映像" width="320"><p></p><a>このステーションで遊ぶ</a>`;
    const [img, line, link] = [this.querySelector('img')!, this.querySelector('p')!, this.querySelector('a')!];
    link.href = new URL(`/game/${id}`, new URL(apiBase, location.href)).toString();

    const client = createOnkureClient({ apiBase: new URL(apiBase, location.href).toString() });
    const feed = client.get(TOKENS.LiveFeed);
    const [catalog, play] = [client.get(TOKENS.PrizeCatalogPort), client.get(TOKENS.PlayPort)];
    const subscriptions = [
      // The live picture: the feed's stills, each replacing the last.
      play.stationInfo(id).subscribe((answer) => answer.kind === 'info' && feed.start(answer.info, 'jpg')),
      feed.state$.subscribe((state) => {
        if (state.cameras.front.still) img.src = state.cameras.front.still;
      }),
      // The line: read when the top channel is joined, then each change pushed.
      client
        .get(TOKENS.RealtimePort)
        .channel({ kind: 'top' })
        .pipe(concatMap((e) => (e.type === 'joined' ? catalog.lobby() : e.type === 'list' ? of(e.stations) : EMPTY)))
        .subscribe((stations) => {
          const station = stations.find((s) => s.station_id === id);
          if (station) line.textContent = `待ち ${station.reserve_count ?? 0}人`;
        }),
    ];
    this.stop = () => {
      subscriptions.forEach((s) => s.unsubscribe());
      feed.dispose();
    };
  }

  disconnectedCallback() {
    this.stop();
  }
}

customElements.define('minimal-station', MinimalStation);
