import type { KujiBoxEffect, KujiBoxSnapshot, KujiRoomState, KujiHolder, KujiPlace } from './kuji-box.types';

/**
 * A box as the store holds it, after a (re)start: its holder and line where they were, each window
 * at its stored instant. The `resumed` event that follows fixes the order of a box on sale that has
 * none, lapses what lapsed while the server was down and hands a free box to the first in line.
 * A place the store holds for a box that is not on sale (which the operator's end makes impossible)
 * is ended.
 */
export function restoreKujiBox(
  snapshot: KujiBoxSnapshot,
  now: number,
): { state: KujiRoomState; effects: KujiBoxEffect[] } {
  const effects: KujiBoxEffect[] = [];
  const onSale = snapshot.box.status === 'onSale';
  if (!onSale && snapshot.places.length > 0) {
    effects.push({
      type: 'commit',
      writes: [
        {
          kind: 'endPlaces',
          reserveIds: snapshot.places.map((p) => p.reserveId),
          status: 'end',
          reason: 'box_ended',
          drawer: null,
          at: now,
        },
      ],
    });
  }
  const places = onSale ? snapshot.places : [];
  const held = places.find((p) => p.status !== 'reserve' && p.playAt !== null);
  const holder: KujiHolder | null =
    held && held.status !== 'reserve' && held.playAt !== null
      ? { reserveId: held.reserveId, userId: held.userId, token: held.token, status: held.status, playAt: held.playAt }
      : null;
  const line: KujiPlace[] = places
    .filter((p) => p !== held)
    .map((p) => ({ reserveId: p.reserveId, userId: p.userId, token: p.token }));
  return { state: { box: snapshot.box, holder, line, limits: snapshot.limits }, effects };
}
