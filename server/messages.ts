import { MINUTE_MS, VERIFICATION_CODE_TTL_MS } from '../src/domain';

/** How long a sent code is valid, in minutes, as the mails and SMS say it. */
const CODE_MINUTES = VERIFICATION_CODE_TTL_MS / MINUTE_MS;

/** Japanese texts the reference server answers with (user-facing), in one place. */
export const SERVER_MESSAGES = {
  reconciliationFutureDay: 'まだ来ていない日の照合はできません。',
  /** The name the demo's station key carries in the console's key list (server/agent/demo-agent.ts). */
  demoAgentKeyName: 'デモ用シミュレーター (npm start)',
  loginFailed: 'メールアドレスまたはパスワードが正しくありません。',
  loginSlowedDown: 'ログインの失敗が続いたため、この端末からはしばらくログインできません。時間をおいてお試しください。',
  purchaseRequestIdReused: 'このリクエストIDはすでに別の購入内容で使われています。',
  /** Payment provider callbacks (machine to machine, but answered like every call). */
  callbackSignature: '決済サービスからの通知の署名を確認できません。',
  callbackAmountMismatch: '決済サービスからの通知の金額が決済と一致しません。',
  callbackConflict: 'この決済はすでに終了しているため、通知を反映できません。',
  callbackAccountDeleted:
    'この決済のアカウントは削除されているため、通知を反映できません。お支払いは返金してください。',
  addressInUseNoticeSubject: '【オンクレ】このメールアドレスでの登録・確認の試みがありました',
  addressInUseNoticeBody:
    'このメールアドレスは既にオンクレのアカウントに登録されています。どなたかがこのアドレスで新規登録またはメールアドレス確認を試みました。お心当たりがない場合は、このメールを破棄してください。',
  imageNotFound: '画像が見つかりません。',
  imageVariantIncomplete: '画像の幅（w）と形式（fm）は両方を指定してください。',
  shopNotFound: 'ショップが見つかりません。',
  fesNotFound: 'フェスが見つかりません。',
  ticketItemName: 'チケット',
  addressInvalid: '住所の入力内容が正しくありません。',
  addressNotFound: '住所が見つかりません。',
  mainAddressChange: 'メインの住所は、別の住所をメインにしてから変更してください。',
  prizeNotFound: '景品が見つかりません。',
  prizeAlreadyRequested: 'すでに発送依頼済みの景品が含まれています。',
  prizeNotDeliverable: '発送できない景品が含まれています（デジタル景品・保管期限切れ）。',
  deliveryNotFound: '発送依頼が見つかりません。',
  deliveryAddressIncomplete: 'お届け先の住所が未入力です。郵便番号と住所をすべて登録してください。',
  deliveryAlreadyShipped: 'この発送依頼はすでに発送済みのため変更できません。',
  deliveryNotOpen: 'この発送依頼は受付中ではないため、この操作はできません。',
  deliveryRequestIdReused: 'このリクエストIDはすでに別の発送依頼で使われています。',
  deliveryFeeItemName: '発送手数料',
  prizeWonTitle: '景品を獲得しました',
  prizeWonBody: (prize: string) => `「${prize}」を獲得しました。景品BOXから発送依頼ができます。`,
  prizeShippedTitle: '景品を発送しました',
  prizeShippedBody: (tracking: string) => `発送依頼の景品を発送しました。追跡番号: ${tracking}`,
  deliveryCancelledTitle: '発送依頼がキャンセルされました',
  deliveryCancelledBody: (reason: string, fee: number) =>
    fee > 0 ? `${reason}（発送手数料 ${fee.toLocaleString('ja-JP')}TC をお返ししました）` : reason,
  freeTcNoticeTitle: '無償TCの有効期限が近づいています',
  freeTcNoticeBody: (amount: number, until: string, days: number) =>
    `無償TC ${amount.toLocaleString('ja-JP')}TC の有効期限は ${until} までです（あと${days}日）。期限を過ぎると失効します。`,
  storageNoticeTitle: '景品の保管期限が近づいています',
  storageNoticeBody: (prize: string, days: number, more: number) =>
    `「${prize}」${more > 0 ? `ほか${more}件` : ''}の保管期限まであと${days}日です。期限までに発送依頼をしてください。`,
  storageAutoRequestedTitle: '保管期限が来た景品の発送を依頼しました',
  storageAutoRequestedBody: (count: number, fee: number) =>
    `保管期限が来た景品${count}件を、メインのお届け先へ発送依頼しました（発送手数料 ${fee.toLocaleString('ja-JP')}TC）。`,
  storageExpiredTitle: '保管期限が切れた景品があります',
  storageExpiredBody: (count: number) =>
    `保管期限が切れた景品${count}件は、お届け先かTCが足りなかったため無効になりました。`,
  presentCodeNotFound: 'プレゼントコードが見つかりません。',
  presentCodeOutOfPeriod: 'このプレゼントコードは有効期間外です。',
  presentCodeUsed: 'このプレゼントコードはすでに使用済みです。',
  presentCodeTryLimit: 'プレゼントコードの入力回数が上限に達しました。1時間ほどおいてからお試しください。',
  inviteTitle: 'お友達招待キャンペーン',
  userNotFound: 'ユーザーが見つかりません。',
  birthFixed: '生年月日は一度登録すると変更できません。',
  birthInFuture: '生年月日に未来の日付は指定できません。',
  codeSendLimit: '認証コードの送信回数が上限に達しました。しばらくしてからお試しください。',
  emailCodeSubject: '【オンクレ】メールアドレス確認コード',
  smsCodeSubject: 'SMS認証',
  codeTryLimit: '認証コードの入力回数が上限に達しました。しばらくしてから新しいコードでお試しください。',
  /** A limit could not count the attempt (the store failed): refused rather than let through unchecked. */
  limitUnavailable: 'ただいま混み合っています。しばらくしてからもう一度お試しください。',
  codeInvalid: '認証コードが正しくないか、有効期限が切れています。',
  emailTaken: 'このメールアドレスはすでに使われています。',
  kujiNotFound: 'くじが見つかりません。',
  kujiOutOfPeriod: 'このくじは販売期間外です。',
  kujiBoxNotOnSale: 'このBOXは現在販売していません。',
  kujiBoxEmpty: 'このBOXの景品はすべてなくなりました。',
  kujiAlreadyReserved: 'すでに予約中のくじがあります。',
  kujiReservationEnded: 'このくじの予約はすでに終了しています。',
  kujiNotYourTurn: 'まだあなたの順番ではありません。順番が来るまでお待ちください。',
  kujiNotEnoughTickets: (left: number) => `このBOXの残りは${left}枚です。枚数を選び直してください。`,
  kujiNotOpened: 'このBOXはまだ販売を開始していません。',
  kujiSeedPublished: 'このBOXは並び順のシードを公開済みのため、販売を再開できません。',
  kujiDrawTooLarge: '一度に引ける金額の上限を超えています。枚数を減らしてください。',
  kujiNoRecord: 'このBOXには公開できる抽選の記録がありません。',
  kujiStockFixed: 'このBOXは販売を開始しているため、在庫を変更できません。',
  kujiRankUnknown: 'このBOXにない賞が指定されています。',
  kujiTurnTitle: 'くじの順番が来ました',
  kujiTurnBody: (seconds: number) => `${seconds}秒以内にくじを引いてください。`,
  stationNotFound: 'ステーションが見つかりません。',
  strayPrizeSettled: 'この景品はすでに処理されたか、見つかりません。',
  strayPrizeNoPlayer: 'この景品を渡せるプレイヤーがいません。台に戻してください。',
  relayRefused: 'この操作は受け付けられません。',
  stationOnAnotherInstance: 'ただいまこのステーションに接続できません。しばらくしてからもう一度お試しください。',
  reservationNotFound: '予約が見つかりません。',
  visitNotFound: '視聴中のステーションが見つかりません。',
  stationPrizeChange: '景品の入れ替え中のため、ただいま予約できません。',
  stationSoldOut: '景品が品切れのため予約できません。',
  alreadyReservedHere: 'すでにこのステーションを予約しています。',
  reservedElsewhere: 'ほかのステーションを予約中です。予約を取り消してからお試しください。',
  idempotencyConflict: 'この操作はすでに別の内容で受け付けています。',
  // The play loop
  notYourTurn: 'まだ順番ではありません。',
  /** The development call that makes operator accounts: the account rule is quoted as written. */
  operatorAccountRefused: (rule: string) => `運用者アカウントを作成できませんでした（${rule}）。`,
  playNotFound: 'プレイが見つかりません。',
  notYourPlay: 'このプレイは操作できません。',
  buttonNotReady: 'このボタンはいま操作できません。',
  controlTooFast: '操作が速すぎます。少し間をあけてください。',
  /** A spectator report naming a station whose channel the connection has not joined. */
  watchingNotJoined: 'このステーションを表示していません。ページを開き直してください。',
  continueClosed: '続けてプレイできる時間を過ぎました。',
  stationPlayingNow: 'プレイ中のため、この操作はできません。',
  operatorOnly: '運営者用の操作です。サインインしてください。',
  operatorRoleRefused: 'この操作を行う権限がありません。',
  operatorLoginFailed: 'ログインIDまたはパスワードが正しくありません。',
  operatorLoginLimited: 'ログインの試行が多すぎます。しばらくしてからもう一度お試しください。',
  // Station keys (docs/security.md "Station keys")
  stationKeyNotFound: '接続キーが見つかりません。',
  stationKeyUnknownStations: (ids: readonly number[]) => `ステーションが見つかりません（ID: ${ids.join('、')}）。`,
  stationKeyNotRotatable: 'この接続キーは失効済みか、すでに切り替え済みのため切り替えられません。',
  stationPaused: 'このステーションは一時停止中です。しばらくお待ちください。',
  machineDown: 'この台の機械は現在プレイできません。復旧までしばらくお待ちください。',
  machineBusy: 'プレイ中または停止していないため、この操作はできません。',
  assistNotAvailable:
    'スタッフアシストは、この台で決められた回数続けて取れなかったときに、結果の画面から依頼できます。',
  assistPending: 'スタッフアシストの対応を待っています。対応が終わると続けてプレイできます。',
  noAssist: 'このプレイへのスタッフアシストの依頼はありません（すでに対応済みか、取り消されました）。',
  stationNoPlay: 'このステーションでは、いまプレイしているお客様はいません。',
  numbersRange: (maxDays: number) => `集計期間は開始日から終了日まで、${maxDays}日以内で指定してください。`,
  /** The maintenance screen's text when the operator gives none (emergency). */
  emergencyInfo:
    'ただいま緊急メンテナンスを行っています。ご迷惑をおかけして申し訳ございません。再開までしばらくお待ちください。',
  /** The alert's text for reloaderror and the info of a cancellation when the operator gives none. */
  reloadInfo: '最新の情報を読み込むため、ページを再読み込みしてください。',
  devTokenOperator: '開発用トークン',
  cameraForbidden: 'このステーションの映像を見る権限がありません。',
  // Camera publishing over WHIP (docs/live-feed.md "Cameras from WHIP")
  whipNoKey: 'ステーションの接続キーを Authorization: Bearer で指定してください。',
  whipBadKey: '接続キーが正しくないか、失効しています。',
  whipOtherStation: 'この接続キーではこのステーションのカメラを配信できません。',
  whipUnknownCamera: 'カメラは front または side を指定してください。',
  whipNotSdp: 'SDP のオファーを Content-Type: application/sdp で送ってください。',
  whipBadOffer: 'SDP のオファーを読み取れませんでした。',
  whipNoVideo: 'オファーに送信する映像がありません。',
  whipNoCodec: '映像のコーデックは VP8 または H.264（packetization-mode=1）にしてください。',
  whipTooManyMedia: 'オファーのメディアが多すぎます。',
  whipCameraPresent: 'このカメラは実機のカメラが配信中です。シミュレーターの映像では置き換えられません。',
  whipNoTranscoder: 'このサーバーでは H.264 を変換できません。VP8 で配信してください。',
  whipSessionNotFound: '配信セッションが見つかりません。',
  whipEtagMismatch: '配信セッションの ETag が一致しません。',
  whipTooManyCandidates: 'ICE の候補が多すぎます。',
  whipIceRestart: 'ICE の再起動には対応していません。新しく配信を始めてください。',
  cameraNoPicture: 'カメラの映像を準備しています。しばらくお待ちください。',
  cameraStillsTooMany: 'カメラ画像の取得が多すぎます。しばらくしてからお試しください。',
  hlsTooFarAhead: 'まだ配信されていない先の映像が指定されました。再生リストを読み直してください。',
  whipStarting: 'サーバーを起動しています。しばらくしてからもう一度お試しください。',
  whipOnAnotherInstance: 'このカメラを受けるサーバーにつながりません。しばらくしてからもう一度お試しください。',
  anonymousPlayer: 'プレイヤー',
  turnNearTitle: 'まもなくあなたの番です',
  turnNearBody: (prize: string, place: number) =>
    `「${prize}」の順番まであと${place}番目です。画面に戻ってお待ちください。`,
  turnNowTitle: 'あなたの番です',
  turnNowBody: (prize: string, seconds: number) => `「${prize}」のプレイ開始を${seconds}秒以内に確定してください。`,
  reserveCancelTitle: '予約が取り消されました',
  reserveCancelBody: (prize: string) => `「${prize}」の予約が取り消されました。`,
  winnerAnnouncement: (nickname: string, prize: string) => `${nickname}さんが「${prize}」をゲット！`,
  /** The body of the e-mail carrying a verification code (the contract test reads the code after '認証コード: '). */
  emailCodeBody: (code: string) =>
    `認証コード: ${code}\n${CODE_MINUTES}分以内に画面へ入力してください。お心当たりのない場合はこのメールを破棄してください。`,
  smsCodeBody: (code: string) => `【オンクレ】認証コード: ${code}（${CODE_MINUTES}分間有効）`,
  addressLimit: (max: number) => `住所は${max}件まで登録できます。`,
  debugNickname: (name: string) => `デバッグ${name}`,
  insufficient: (unit: string, needed: number, available: number) =>
    `${unit}が不足しています（必要: ${needed.toLocaleString('ja-JP')}、保有: ${available.toLocaleString('ja-JP')}）。`,
  inviteText: (code: string, tickets: number) =>
    `オンラインクレーンゲーム「オンクレ」で一緒に遊ぼう！招待コード「${code}」で登録すると、招待した人にチケット${tickets}枚をプレゼント。`,
  // Password change and reset (docs/api/user.md)
  passwordWrong: 'パスワードが正しくありません。',
  passwordNotSet: 'このアカウントにはパスワードが設定されていません。',
  passwordCheckLimit:
    'パスワードの確認に続けて失敗したため、しばらくお試しいただけません。時間をおいてお試しください。',
  passwordResetLimit: 'パスワード再設定のリクエストが多すぎます。しばらくしてからお試しください。',
  passwordResetSubject: '【オンクレ】パスワード再設定コード',
  /** The reset e-mail (a test reads the code after '認証コード: ', like the e-mail code). */
  passwordResetBody: (code: string) =>
    `パスワード再設定の認証コード: ${code}\n${CODE_MINUTES}分以内に画面へ入力してください。お心当たりのない場合はこのメールを破棄してください。パスワードは変更されません。`,
  passwordChangedSubject: '【オンクレ】パスワードが変更されました',
  passwordChangedBody:
    'オンクレのアカウントのパスワードが変更され、ほかの端末のログインは終了しました。お心当たりのない場合は、パスワードの再設定をお願いします。',
  // Account deletion [R10-7]
  accountDeleteBusy:
    '予約中・プレイ中のステーションまたはくじがあるため退会できません。予約を取り消してからお試しください。',
  deliveryCancelledByDeletion: '退会によりキャンセルされました（発送手数料は返還されません）。',
  // Support (docs/support.md)
  contactLimit: (max: number) => `お問い合わせは1時間に${max}件まで送信できます。しばらくしてからお試しください。`,
  chatLimit: 'メッセージの送信が多すぎます。少し時間をおいてからお試しください。',
  chatClientIdReused: 'このメッセージIDはすでに別の内容で使われています。',
  contactNotFound: 'お問い合わせが見つかりません。',
  // A video of every play (docs/clips.md)
  clipNotFound: '動画が見つかりません。',
  clipRangeUnsatisfiable: '指定された範囲は動画の長さを超えています。',
  clipNotReady: 'この動画はまだ準備中か、保存されていないため、この操作はできません。',
  clipKeepLimit: (max: number) => `保存できる動画は${max}本までです。ほかの動画の保存を解除してからお試しください。`,
  // The development analytics collector (docs/analytics.md)
  analyticsUnknownEvent: '分析イベントの名前が正しくありません。',
  analyticsBadSendTo: '分析イベントの送信先IDが正しくありません。',
  analyticsBadParamName: '分析イベントの項目名が正しくありません。',
  analyticsBadParamValue: '分析イベントの項目の値は文字列・数値・真偽値で指定してください。',
  analyticsTooManyParams: '分析イベントの項目が多すぎます。',
  analyticsParamsTooLarge: '分析イベントの内容が大きすぎます。',
  analyticsBadCommonFields: '分析イベントのユーザーIDまたはショップIDが正しくありません。',
  analyticsBadFlags: '分析イベントの is_pc または site_type の値が正しくありません。',
} as const;

/** Japanese error_info texts of the reference server, by error_code. */
export const ERROR_INFO = {
  400: 'リクエストの内容が正しくありません。',
  401: 'ログインの有効期限が切れました。もう一度ログインしてください。',
  402: 'TCが不足しています。',
  403: 'この操作は許可されていません。',
  404: 'お探しの情報が見つかりません。',
  409: 'この操作は現在の状態では実行できません。',
  413: 'リクエストが大きすぎます。',
  415: 'リクエストの形式に対応していません。',
  429: 'リクエストが多すぎます。しばらくしてからお試しください。',
  500: 'サーバーで問題が発生しました。しばらくしてからもう一度お試しください。',
  503: 'サーバーを起動しています。しばらくしてからもう一度お試しください。',
} as const;

/** invaliduser (MAINTENANCE_CODES in the domain) answers a call by a suspended user (users.status 2). */
export const INVALID_USER_INFO = 'このアカウントは現在ご利用いただけません。お問い合わせください。';
