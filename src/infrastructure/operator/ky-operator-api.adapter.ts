import ky, { type KyInstance } from 'ky';
import { z } from 'zod/mini';
import {
  OperatorCallFailed,
  type AuditRow,
  type ContactRecord,
  type EmergencyState,
  type FloorStation,
  type IssuedStationKeyView,
  type KujiBoxView,
  type MachineAction,
  type NumbersRow,
  type ReconciliationView,
  type OperatorApiPort,
  type OperatorDelivery,
  type OperatorIdentity,
  type OperatorPlayClip,
  type OperatorPlayLogEntry,
  type OperatorSignIn,
  type OperatorTokenStorePort,
  type OperatorUserView,
  type PrizeChange,
  type ServiceMessageCode,
  type StationAgentView,
  type StationCameraView,
  type StationFeedView,
  type SettingsChangeAsk,
  type StationChange,
  type StationKeyView,
  type StraySettle,
  type SupportThreadSummary,
} from '../../application/operator';
import type {
  ChatMessage,
  DeliveryStatus,
  KujiBoxStatus,
  KujiFairnessRecord,
  StaffAssistAnswer,
  StationStatus,
} from '../../domain';
import {
  chatListResponseSchema,
  kujiFairnessResponseSchema,
  PLAY_ENDPOINTS,
  errorResponseSchema,
  CLIP_ENDPOINTS,
  operatorPlayClipResponseSchema,
  OPERATOR_SUPPORT_ENDPOINTS as OS,
  operatorContactCloseResponseSchema,
  operatorContactsResponseSchema,
  operatorDeliverySchema,
  operatorThreadsResponseSchema,
} from '../../contract';
import {
  OPERATOR_AUTH_HEADER,
  OPERATOR_ENDPOINTS as O,
  operatorAuditResponseSchema,
  operatorFloorResponseSchema,
  operatorKujiBoxAnswerSchema,
  operatorKujiBoxesResponseSchema,
  operatorKujiBoxStockAnswerSchema,
  operatorLoginResponseSchema,
  operatorMeResponseSchema,
  operatorMessageResponseSchema,
  operatorNumbersResponseSchema,
  operatorReconciliationResponseSchema,
  operatorPauseResponseSchema,
  operatorStrayPrizeResponseSchema,
  operatorPlayLogAnswerSchema,
  operatorRemoveFromLineResponseSchema,
  operatorServiceStateResponseSchema,
  operatorStationAgentsResponseSchema,
  operatorStationCamerasResponseSchema,
  operatorStationFeedsResponseSchema,
  operatorAssistAnswerResponseSchema,
  operatorStationAnswerSchema,
  operatorStationKeyIssuedResponseSchema,
  operatorStationKeyRevokedResponseSchema,
  operatorStationKeysResponseSchema,
  operatorUserResponseSchema,
} from '../../contract/operator.schema';
import { toChatMessage } from '../wire/chat-wire';

export interface OperatorHttpConfig {
  /** Base address of the API, e.g. '/api' (origin-relative) or 'http://127.0.0.1:8080/api'. */
  readonly apiBase: string;
  /** The API's own Authorization header (API_AUTHORIZATION), '' for none. */
  readonly authorization?: string;
  /** Abort a call after this many milliseconds (default 15 s). */
  readonly timeoutMs?: number;
  /** fetch to use (tests pass the server's in-process fetch); defaults to the global fetch. */
  readonly fetch?: typeof fetch;
}

/** A plain success with nothing else the console reads. */
const okSchema = z.object({ error_code: z.literal(200) });
const deliveriesResponseSchema = z.object({ error_code: z.literal(200), list: z.array(operatorDeliverySchema) });

/**
 * The operator API over HTTP with ky: every call a POST with a JSON body and the session's bearer
 * token in the operator header (never a cookie), every answer validated against the contract's
 * schema here, at the border. Refusals (HTTP status ≠ 200 or error_code ≠ 200) become
 * `OperatorCallFailed('refused')` carrying the server's Japanese error_info; no answer becomes
 * 'transport'; an answer that breaks the contract becomes 'invalidAnswer'. Nothing is retried: every
 * operator action changes something, and the operator decides whether to try again.
 */
export class KyOperatorApi implements OperatorApiPort {
  private readonly http: KyInstance;

  constructor(
    config: OperatorHttpConfig,
    private readonly tokens: Pick<OperatorTokenStorePort, 'read'>,
  ) {
    this.http = ky.create({
      prefixUrl: config.apiBase,
      headers: {
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        ...(config.authorization ? { Authorization: config.authorization } : {}),
      },
      timeout: config.timeoutMs ?? 15_000,
      retry: 0,
      throwHttpErrors: false,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }

  private async call<S extends z.ZodMiniType>(
    path: string,
    body: object,
    schema: S,
    withSession = true,
  ): Promise<z.output<S>> {
    const token = withSession ? this.tokens.read() : null;
    let response: Response;
    try {
      response = await this.http.post(path, {
        json: body,
        headers: token ? { [OPERATOR_AUTH_HEADER]: `Bearer ${token}` } : {},
      });
    } catch (cause) {
      throw new OperatorCallFailed('transport', 0, 0, null, path, { cause });
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch (cause) {
      throw new OperatorCallFailed(response.ok ? 'invalidAnswer' : 'transport', response.status, 0, null, path, {
        cause,
      });
    }
    const envelope = z.partial(errorResponseSchema).safeParse(json);
    const code = envelope.success ? (envelope.data.error_code ?? 0) : 0;
    const info = envelope.success ? (envelope.data.error_info ?? null) : null;
    if (response.status !== 200 || code !== 200)
      throw new OperatorCallFailed('refused', response.status, code, info || null, path);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new OperatorCallFailed('invalidAnswer', 200, 200, null, path, { cause: parsed.error });
    return parsed.data;
  }

  async login(login: string, password: string): Promise<OperatorSignIn> {
    const a = await this.call(O.login, { login, password }, operatorLoginResponseSchema);
    return { token: a.session.token, expiresAt: a.session.expires_at, operator: a.operator };
  }
  async logout(): Promise<void> {
    await this.call(O.logout, {}, okSchema);
  }
  async me(): Promise<OperatorIdentity> {
    return (await this.call(O.me, {}, operatorMeResponseSchema)).operator;
  }

  async floor(): Promise<readonly FloorStation[]> {
    return (await this.call(O.floor, {}, operatorFloorResponseSchema)).stations;
  }
  async stationStatus(stationId: number, status: StationStatus): Promise<StationChange> {
    return this.station(O.stationStatus, { station_id: stationId, station_status: status });
  }
  async fault(stationId: number): Promise<StationChange> {
    return this.station(O.fault, { station_id: stationId });
  }
  async endPlay(stationId: number, playId: number): Promise<StationChange> {
    return this.station(O.endPlay, { station_id: stationId, play_id: playId });
  }
  async removeFromLine(stationId: number, userId: number): Promise<boolean> {
    const body = { station_id: stationId, user_id: userId };
    return (await this.call(O.removeFromLine, body, operatorRemoveFromLineResponseSchema)).removed;
  }
  async pause(stationId: number, paused: boolean): Promise<boolean> {
    const body = { station_id: stationId, paused };
    return (await this.call(O.pause, body, operatorPauseResponseSchema)).station.paused;
  }
  async settleStrayPrize(stationId: number, strayId: number, settle: StraySettle): Promise<number | null> {
    const body = { station_id: stationId, stray_id: strayId, settle };
    return (await this.call(O.strayPrize, body, operatorStrayPrizeResponseSchema)).play_history_id;
  }
  async restock(stationId: number, stock: number): Promise<StationChange> {
    return this.station(O.restock, { station_id: stationId, stock });
  }
  async changePrize(stationId: number, change: PrizeChange): Promise<StationChange> {
    return this.station(O.changePrize, { station_id: stationId, ...change });
  }
  async stationSettings(stationId: number, change: SettingsChangeAsk): Promise<StationChange> {
    return this.station(O.stationSettings, {
      station_id: stationId,
      ...(change.armStrength === undefined ? {} : { arm_strength: change.armStrength }),
      ...(change.playPrice === undefined ? {} : { play_price: change.playPrice }),
      ...(change.assistMisses === undefined ? {} : { assist_misses: change.assistMisses }),
      reason: change.reason,
    });
  }
  async answerAssist(stationId: number, playId: number, answer: StaffAssistAnswer): Promise<void> {
    const body = { station_id: stationId, play_id: playId, answer };
    await this.call(O.assistAnswer, body, operatorAssistAnswerResponseSchema);
  }
  private async station(path: string, body: object): Promise<StationChange> {
    return (await this.call(path, body, operatorStationAnswerSchema)).station;
  }
  async playLog(stationId: number | null, limit: number): Promise<readonly OperatorPlayLogEntry[]> {
    const body = stationId === null ? { limit } : { station_id: stationId, limit };
    return (await this.call(O.playLog, body, operatorPlayLogAnswerSchema)).list;
  }
  async playClip(playId: number): Promise<OperatorPlayClip> {
    return (await this.call(CLIP_ENDPOINTS.operatorClip, { play_id: playId }, operatorPlayClipResponseSchema)).clip;
  }

  async broadcast(code: ServiceMessageCode, info: string | null): Promise<number> {
    const body = info ? { code, info } : { code };
    return (await this.call(O.broadcast, body, operatorMessageResponseSchema)).delivered;
  }
  async serviceState(): Promise<EmergencyState | null> {
    return (await this.call(O.serviceState, {}, operatorServiceStateResponseSchema)).emergency;
  }
  async emergencyEnd(): Promise<void> {
    await this.call(O.emergencyEnd, {}, okSchema);
  }
  async user(userId: number): Promise<OperatorUserView> {
    return (await this.call(O.user, { user_id: userId }, operatorUserResponseSchema)).user;
  }
  async userMessage(userId: number, code: ServiceMessageCode, info: string | null): Promise<number> {
    const body = info ? { user_id: userId, code, info } : { user_id: userId, code };
    return (await this.call(O.userMessage, body, operatorMessageResponseSchema)).delivered;
  }
  async userStatus(userId: number, suspended: boolean): Promise<OperatorUserView> {
    return (await this.call(O.userStatus, { user_id: userId, suspended }, operatorUserResponseSchema)).user;
  }

  async kujiBoxes(): Promise<readonly KujiBoxView[]> {
    return (await this.call(O.kujiBoxes, {}, operatorKujiBoxesResponseSchema)).boxes;
  }
  async kujiBoxStatus(boxId: number, status: KujiBoxStatus): Promise<KujiBoxStatus> {
    const body = { box_id: boxId, box_status: status };
    return (await this.call(O.kujiBoxStatus, body, operatorKujiBoxAnswerSchema)).box.box_status;
  }
  async kujiBoxStock(boxId: number, prizes: readonly { rank: string; quantity: number }[]): Promise<void> {
    await this.call(O.kujiBoxStock, { box_id: boxId, prizes }, operatorKujiBoxStockAnswerSchema);
  }

  async kujiFairness(boxId: number): Promise<KujiFairnessRecord> {
    // The players' public call: the operator's session is not sent with it.
    return (await this.call(PLAY_ENDPOINTS.kujiFairness, { box_id: boxId }, kujiFairnessResponseSchema, false))
      .fairness;
  }

  async deliveries(status: DeliveryStatus | null): Promise<readonly OperatorDelivery[]> {
    const body = status ? { delivery_status: status, limit: 200 } : { limit: 200 };
    return (await this.call(O.deliveries, body, deliveriesResponseSchema)).list;
  }
  async ship(deliveryId: number, trackingNumber: string): Promise<void> {
    await this.call(O.deliveryShip, { delivery_id: deliveryId, tracking_number: trackingNumber }, okSchema);
  }
  async cancelDelivery(deliveryId: number, reason: string): Promise<void> {
    await this.call(O.deliveryCancel, { delivery_id: deliveryId, reason }, okSchema);
  }

  async contacts(status: 'open' | 'closed'): Promise<readonly ContactRecord[]> {
    return (await this.call(OS.contacts, { status, limit: 100 }, operatorContactsResponseSchema)).list;
  }
  async closeContact(contactId: number): Promise<void> {
    await this.call(OS.contactClose, { contact_id: contactId }, operatorContactCloseResponseSchema);
  }
  async threads(): Promise<readonly SupportThreadSummary[]> {
    const list = (await this.call(OS.threads, { limit: 100 }, operatorThreadsResponseSchema)).list;
    return list.map((t) => ({ ...t, last_message: toChatMessage(t.last_message) }));
  }
  async thread(userId: number): Promise<readonly ChatMessage[]> {
    return (await this.call(OS.thread, { user_id: userId }, chatListResponseSchema)).list.map(toChatMessage);
  }
  async reply(userId: number, text: string, clientId: string): Promise<void> {
    await this.call(OS.reply, { user_id: userId, text, client_id: clientId }, okSchema);
  }

  async numbers(from: string, to: string): Promise<readonly NumbersRow[]> {
    return (await this.call(O.numbers, { from, to }, operatorNumbersResponseSchema)).rows;
  }
  async reconciliation(day: string | null, run: boolean): Promise<ReconciliationView> {
    const body = { ...(day ? { day } : {}), ...(run ? { run: 1 as const } : {}) };
    const answer = await this.call(O.reconciliation, body, operatorReconciliationResponseSchema);
    return { day: answer.day, ranAt: answer.ran_at, report: answer.report, runs: answer.runs };
  }
  async audit(operatorLogin: string | null): Promise<readonly AuditRow[]> {
    const body = operatorLogin ? { operator_login: operatorLogin, limit: 200 } : { limit: 200 };
    return (await this.call(O.audit, body, operatorAuditResponseSchema)).list;
  }

  async stationKeys(): Promise<readonly StationKeyView[]> {
    return (await this.call(O.stationKeys, {}, operatorStationKeysResponseSchema)).keys;
  }
  async issueStationKey(name: string, stationIds: readonly number[]): Promise<IssuedStationKeyView> {
    const body = { name, station_ids: stationIds };
    const { key, entry } = await this.call(O.stationKeyIssue, body, operatorStationKeyIssuedResponseSchema);
    return { key, entry };
  }
  async rotateStationKey(keyId: string, overlapMinutes: number): Promise<IssuedStationKeyView> {
    const body = { key_id: keyId, overlap_minutes: overlapMinutes };
    const { key, entry } = await this.call(O.stationKeyRotate, body, operatorStationKeyIssuedResponseSchema);
    return { key, entry };
  }
  async revokeStationKey(keyId: string): Promise<StationKeyView> {
    return (await this.call(O.stationKeyRevoke, { key_id: keyId }, operatorStationKeyRevokedResponseSchema)).entry;
  }

  async stationAgents(): Promise<readonly StationAgentView[]> {
    return (await this.call(O.stationAgents, {}, operatorStationAgentsResponseSchema)).agents;
  }

  async stationCameras(): Promise<readonly StationCameraView[]> {
    return (await this.call(O.stationCameras, {}, operatorStationCamerasResponseSchema)).cameras;
  }
  async stationFeeds(): Promise<readonly StationFeedView[]> {
    return (await this.call(O.stationFeeds, {}, operatorStationFeedsResponseSchema)).stations;
  }
  async stationMachine(stationId: number, action: MachineAction): Promise<StationChange> {
    return this.station(O.stationMachine, { station_id: stationId, action });
  }
}
