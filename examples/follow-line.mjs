/**
 * Follows a station's line from the terminal, with the onkure core and no DOM: the station's
 * status, whether someone is playing, the places taken in its line and its viewers, printed once
 * as they are and again each time the service pushes a change.
 *
 *   node follow-line.mjs <station id> [--api=http://localhost:8080/api/] [--changes=N]
 *
 * --changes=N stops after N changes (else Ctrl-C).
 */
import { concatMap, distinctUntilChanged, EMPTY, filter, map, of, take } from 'rxjs';
import { TOKENS } from 'onkure/application';
import { createOnkureClient } from 'onkure/infrastructure';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const stationId = Number(args.find((a) => !a.startsWith('--')));
if (!Number.isInteger(stationId) || stationId <= 0) {
  console.error('usage: node follow-line.mjs <station id> [--api=http://localhost:8080/api/] [--changes=N]');
  process.exit(2);
}
const changes = option('changes') === undefined ? Infinity : Number(option('changes'));

const client = createOnkureClient({ apiBase: option('api') ?? 'http://localhost:8080/api/' });
const catalog = client.get(TOKENS.PrizeCatalogPort);
const realtime = client.get(TOKENS.RealtimePort);

// The top channel pushes each change of a station's numbers. Once joined (and again after each
// reconnection), the lobby's numbers as they are then; then every update pushed, and a fresh read
// when a station's status changes (in order: a push that comes while a read is under way waits).
const station$ = realtime.channel({ kind: 'top' }).pipe(
  concatMap((event) => {
    if (event.type === 'joined') return catalog.lobby();
    if (event.type === 'list') return of(event.stations);
    if (event.type === 'maintenance' && event.stationId === stationId) return catalog.lobby();
    return EMPTY;
  }),
  map((stations) => stations.find((s) => s.station_id === stationId)),
  filter((station) => station !== undefined),
  map((s) => ({
    status: s.station_status,
    playing: s.playing === 1,
    line: s.reserve_count ?? 0,
    viewers: s.visit_count,
  })),
  distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
);

const STATUS = { open: '営業中', stop: '停止中', maintenance: 'メンテナンス中' };
const line = (s) =>
  `ステーション ${stationId}: ${STATUS[s.status] ?? s.status}${s.playing ? '・プレイ中' : ''} / 待ち ${s.line}人 / 視聴 ${s.viewers}人`;

const subscription = station$.pipe(take(changes === Infinity ? Infinity : changes + 1)).subscribe({
  next: (s) => console.log(line(s)),
  error: (error) => {
    console.error(`onkure: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    stop();
  },
  complete: () => stop(),
});

/** The socket stays open for the next channel a UI would join; a script that is done exits. */
function stop() {
  subscription?.unsubscribe();
  process.exit(process.exitCode ?? 0);
}
process.once('SIGINT', stop);
