import type { KujiKind } from '../kuji/kuji-kind';
import type { StationKind } from '../play/rooms/station-kind';
import type { RoomRegistry } from './room-registry';

/** The kinds of rooms of the reference server (docs/architecture.md, "Rooms"). */
export type RoomKinds = { readonly station: StationKind; readonly kuji: KujiKind };

/** Every room of this instance, by room id. */
export type Rooms = RoomRegistry<RoomKinds>;
