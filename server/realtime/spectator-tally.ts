import { z } from 'zod/mini';
import { WATCH_KINDS, type WatchKind } from '../../src/domain';

/** How many of a station's pages show each kind (on one instance, or summed over all). */
export interface SpectatorCounts {
  readonly station_id: number;
  readonly hls: number;
  readonly rtc: number;
  readonly jpg: number;
}

/** One instance's counts of one station (the instances' answers carry these). */
export const instanceSpectatorsSchema = z.object({
  instance: z.string().check(z.maxLength(64)),
  station_id: z.int().check(z.positive()),
  hls: z.int().check(z.nonnegative()),
  rtc: z.int().check(z.nonnegative()),
  jpg: z.int().check(z.nonnegative()),
});
export type InstanceSpectators = z.infer<typeof instanceSpectatorsSchema>;

/**
 * The spectators of this instance's connections (docs/spectators.md "Counting spectators"): each
 * connection holds at most one report (the station and the kind its page shows); a new report
 * replaces the connection's last one, a withdrawal or a closed connection drops it. Counts per
 * station are kept as reports come, so reading them costs one row per station watched.
 */
export class SpectatorTally {
  private readonly reports = new Map<string, { readonly stationId: number; readonly kind: WatchKind }>();
  private readonly counts = new Map<number, Record<WatchKind, number>>();

  /** The connection's page shows `kind` of `stationId` now (its previous report, if any, no longer counts). */
  set(connection: string, stationId: number, kind: WatchKind): void {
    this.drop(connection);
    this.reports.set(connection, { stationId, kind });
    const counts = this.counts.get(stationId) ?? { hls: 0, rtc: 0, jpg: 0 };
    counts[kind] += 1;
    this.counts.set(stationId, counts);
  }

  /** The connection watches nothing (it said so, or it closed). */
  drop(connection: string): void {
    const report = this.reports.get(connection);
    if (!report) return;
    this.reports.delete(connection);
    const counts = this.counts.get(report.stationId);
    if (!counts) return;
    counts[report.kind] -= 1;
    if (WATCH_KINDS.every((k) => counts[k] === 0)) this.counts.delete(report.stationId);
  }

  /** The connection's report, if any (tests). */
  reportOf(connection: string): { readonly stationId: number; readonly kind: WatchKind } | null {
    return this.reports.get(connection) ?? null;
  }

  /** Every station watched here, with its counts. */
  rows(): SpectatorCounts[] {
    return [...this.counts.entries()].map(([station_id, c]) => ({ station_id, hls: c.hls, rtc: c.rtc, jpg: c.jpg }));
  }
}

/** Sums the instances' rows per station. */
export function sumSpectators(rows: readonly SpectatorCounts[]): SpectatorCounts[] {
  const sums = new Map<number, { hls: number; rtc: number; jpg: number }>();
  for (const row of rows) {
    const sum = sums.get(row.station_id) ?? { hls: 0, rtc: 0, jpg: 0 };
    sum.hls += row.hls;
    sum.rtc += row.rtc;
    sum.jpg += row.jpg;
    sums.set(row.station_id, sum);
  }
  return [...sums.entries()].sort(([a], [b]) => a - b).map(([station_id, c]) => ({ station_id, ...c }));
}
