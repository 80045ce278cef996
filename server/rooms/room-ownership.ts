/** A room's id: its kind and its number (`station:12`, `kuji:3`). */
export const roomId = (kind: string, id: number): string => `${kind}:${id}`;

/** Which rooms run on this instance (server/rooms/room-host.ts). */
export interface RoomOwnership {
  /** Whether other instances may run rooms (PostgreSQL). */
  readonly distributed: boolean;
  owns(roomId: string): boolean;
  /** Takes a room no instance runs: 'here' when it runs here now, 'missing' when there is no such room. */
  claim(roomId: string): Promise<'here' | 'elsewhere' | 'missing'>;
}

/** The embedded store's single instance runs every room. */
export const EVERY_ROOM_HERE: RoomOwnership = {
  distributed: false,
  owns: () => true,
  claim: async () => 'here',
};
