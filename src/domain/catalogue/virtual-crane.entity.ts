/** Virtual cranes (POST /virtualcrane/list): shown to signed-in players off yahoo [R2.4-2]. */

export interface VirtualCrane {
  readonly virtual_crane_id: number;
  readonly name: string;
  readonly description: string;
  readonly img_url: string;
  readonly play_price: number;
  readonly new: 0 | 1;
}

/** The virtual cranes and the badge count (how many are new; 0 hides the badge). */
export interface VirtualCraneList {
  readonly list: readonly VirtualCrane[];
  readonly Badge: number;
}
