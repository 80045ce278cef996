import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './test';
import { hold, OPERATOR_TOKEN } from './players';

const operator = (request: APIRequestContext, path: string, data: object) =>
  request.post(`/api/operator/${path}`, { data, headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` } });

/** Where to steer the claw for a win on a rigged station. */
export interface RiggedStation {
  readonly target: { readonly x: number; readonly z: number };
}

/**
 * An easy station: stocked, full arm strength, and (development call) a seed whose draws grab and
 * hold; answers the prize nearest the claw's start beyond the chute.
 */
export async function rigForWin(request: APIRequestContext, station: number): Promise<RiggedStation> {
  expect((await operator(request, 'restock', { station_id: station, stock: 10 })).status()).toBe(200);
  expect((await operator(request, 'arm_strength', { station_id: station, arm_strength: 1 })).status()).toBe(200);
  const rig = await request.post('/api/dev/play/rig', { data: { station_id: station, seed: 7 } });
  const { prizes } = (await rig.json()) as { prizes: { x: number; z: number }[] };
  // The claw starts over the chute at (80, 80) and moves 200 units a second while a button is held.
  return { target: prizes.filter((p) => p.x > 200 && p.z > 200).sort((a, b) => a.x + a.z - (b.x + b.z))[0]! };
}

/** On the station's play screen: reserve, take the turn and steer the claw to the rigged prize: a win. */
export async function playRiggedWin(page: Page, rigged: RiggedStation): Promise<void> {
  await page.getByTestId('reserve').click();
  await page.getByTestId('confirm').click();
  await expect(page.getByTestId('crane-buttons')).toBeVisible({ timeout: 10_000 });
  await hold(page, 'button-right', ((rigged.target.x - 80) / 200) * 1000);
  await hold(page, 'button-back', ((rigged.target.z - 80) / 200) * 1000);
  await expect(page.getByTestId('result')).toHaveAttribute('data-result', 'win', { timeout: 20_000 });
}
