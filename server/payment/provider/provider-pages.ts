import type { FastifyInstance, FastifyReply } from 'fastify';
import { PROVIDER_MESSAGES as M } from './provider.messages';
import {
  TEST_3DS_CODE,
  TEST_CARDS,
  type ProviderPayment,
  type SimulatedPaymentProvider,
  type StepResult,
} from './simulated-provider';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const PAYMENT_ID = /^[0-9a-f-]{36}$/;

/** The provider's pages may be framed by the shop's own pages only; nothing but their own stylesheet loads. */
export const FRAMED_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
  'x-frame-options': 'SAMEORIGIN',
  'cache-control': 'no-store',
  'content-type': 'text/html; charset=utf-8',
} as const;

/** A whole page of the provider (or the shop's return page): Japanese, its own stylesheet, no script. */
export function framedPage(title: string, body: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title><link rel="stylesheet" href="/provider/assets/provider.css"></head><body><main class="pp">${body}</main></body></html>`;
}

const brand = () =>
  `<header class="pp__brand"><span class="pp__logo">${escape(M.brand)}</span><span class="pp__test">${escape(M.testMode)}</span></header>`;

const summary = (p: ProviderPayment) =>
  `<p class="pp__merchant">${escape(M.merchant)}</p><p class="pp__amount">${escape(M.amount(p.amount))}</p>`;

const cancelForm = (p: ProviderPayment) =>
  `<form method="post" action="/provider/pay/${p.payment_id}/cancel" class="pp__cancel"><button type="submit" class="pp__secondary">${escape(M.cancelButton)}</button></form>`;

const error = (message: string | null) => (message ? `<p class="pp__error" role="alert">${escape(message)}</p>` : '');

const field = (name: string, label: string, attrs: string, value = '') =>
  `<label class="pp__field"><span>${escape(label)}</span><input name="${name}" ${attrs} value="${escape(value)}" required></label>`;

function cardPage(p: ProviderPayment, message: string | null, form: Record<string, unknown> = {}): string {
  const value = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).slice(0, 60) : '');
  const cards = Object.entries(TEST_CARDS)
    .map(([n, what]) => `<li><code>${n.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${escape(M.testCards[what])}</li>`)
    .join('');
  return framedPage(
    M.cardTitle,
    `${brand()}<h1>${escape(M.cardTitle)}</h1>${summary(p)}${p.method === 'card_3ds' ? `<p class="pp__note">${escape(M.card3dsNote)}</p>` : ''}${error(message)}
<form method="post" action="/provider/pay/${p.payment_id}/card" class="pp__form">
${field('number', M.cardNumberLabel, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"', value('number'))}
<div class="pp__row">${field('expiry', M.expiryLabel, 'autocomplete="cc-exp" placeholder="12/30" maxlength="7"', value('expiry'))}${field('cvc', M.cvcLabel, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div>
${field('holder', M.holderLabel, 'autocomplete="cc-name" maxlength="50"', value('holder'))}
<button type="submit" class="pp__primary">${escape(M.payButton(p.amount))}</button></form>
${cancelForm(p)}<section class="pp__help"><h2>${escape(M.testCardsTitle)}</h2><ul>${cards}</ul></section>`,
  );
}

function challengePage(p: ProviderPayment, message: string | null): string {
  return framedPage(
    M.challengeTitle,
    `${brand()}<h1>${escape(M.challengeTitle)}</h1>${summary(p)}<p>${escape(M.challengeLead)}</p>${error(message)}
<form method="post" action="/provider/pay/${p.payment_id}/challenge" class="pp__form">
${field('code', M.challengeLabel, 'inputmode="numeric" autocomplete="one-time-code" maxlength="6"')}
<button type="submit" class="pp__primary">${escape(M.challengeButton)}</button></form>
${cancelForm(p)}<p class="pp__help">${escape(M.challengeTestCode(TEST_3DS_CODE))}</p>`,
  );
}

function confirmPage(p: ProviderPayment): string {
  const account = p.method === 'account';
  const banks = M.banks.map((b) => `<option>${escape(b)}</option>`).join('');
  return framedPage(
    account ? M.accountTitle : M.walletTitle,
    `${brand()}<h1>${escape(account ? M.accountTitle : M.walletTitle)}</h1>${summary(p)}<p>${escape(account ? M.accountLead : M.walletLead)}</p>
<form method="post" action="/provider/pay/${p.payment_id}/confirm" class="pp__form">
${account ? `<label class="pp__field"><span>${escape(M.bankLabel)}</span><select name="bank">${banks}</select></label>` : ''}
<button type="submit" class="pp__primary">${escape(account ? M.accountButton(p.amount) : M.payButton(p.amount))}</button></form>${cancelForm(p)}`,
  );
}

function endedPage(p: ProviderPayment): string {
  const title = p.status === 'expired' ? M.expiredTitle : M.endedTitle;
  return framedPage(
    title,
    `${brand()}<h1>${escape(title)}</h1>${summary(p)}<p><a class="pp__primary" href="${escape(p.return_url)}">${escape(M.backToShop)}</a></p>`,
  );
}

function pageOf(p: ProviderPayment, message: string | null = null, form?: Record<string, unknown>): string {
  if (p.status === 'challenge') return challengePage(p, message);
  if (p.status !== 'open') return endedPage(p);
  if (p.method === 'card' || p.method === 'card_3ds') return cardPage(p, message, form);
  return confirmPage(p);
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font-family:system-ui,"Hiragino Sans","Noto Sans CJK JP",sans-serif;color:#1f2933;background:#f5f7fa}
.pp{max-width:28rem;margin:0 auto;padding:1rem}.pp__brand{display:flex;gap:.5rem;align-items:center;margin-bottom:.75rem}
.pp__logo{font-weight:700;color:#0b5394}.pp__test{font-size:.75rem;background:#8a4b00;color:#fff;border-radius:.25rem;padding:.1rem .4rem}
h1{font-size:1.15rem;margin:.25rem 0 .5rem}h2{font-size:.85rem;margin:.5rem 0}.pp__amount{font-size:1.25rem;font-weight:700;margin:.25rem 0}
.pp__merchant,.pp__note,.pp__help{font-size:.85rem;color:#3e4c59}.pp__form{display:grid;gap:.6rem;margin:.75rem 0}
.pp__row{display:grid;grid-template-columns:1fr 1fr;gap:.6rem}.pp__field{display:grid;gap:.2rem;font-size:.85rem}
input,select{font:inherit;width:100%;min-width:0;padding:.55rem;border:1px solid #7b8794;border-radius:.35rem;background:#fff;min-height:44px}
.pp__primary,.pp__secondary{display:block;width:100%;text-align:center;font:inherit;font-weight:700;padding:.7rem;border-radius:.4rem;min-height:44px;cursor:pointer;text-decoration:none}
.pp__primary{background:#0b5394;color:#fff;border:0}.pp__secondary{background:#fff;color:#0b5394;border:1px solid #0b5394}
.pp__error{color:#9b1c1c;background:#fde8e8;padding:.5rem;border-radius:.35rem}.pp__help ul{padding-left:1.1rem;margin:.25rem 0}code{font-size:.85rem}`;

/**
 * The simulated provider's hosted pages under /provider/ (docs/payments.md): the card form (with the
 * 3-D Secure step for card_3ds), the bank's and the wallet's confirm pages, cancel, and a page for a
 * payment that has ended. Plain forms, no script; each finished step sends the player to the shop's
 * return address (303).
 */
export async function providerPages(
  app: FastifyInstance,
  providerOf: () => SimulatedPaymentProvider | null,
): Promise<void> {
  await app.register(async (pages) => {
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    pages.addHook('onSend', async (_request, reply, payload) => {
      for (const [k, v] of Object.entries(FRAMED_PAGE_HEADERS)) if (k !== 'content-type') reply.header(k, v);
      return payload;
    });
    const send = (reply: FastifyReply, html: string, status = 200) =>
      reply.code(status).header('content-type', FRAMED_PAGE_HEADERS['content-type']).send(html);
    const notFound = (reply: FastifyReply) =>
      send(reply, framedPage(M.notFoundTitle, `${brand()}<h1>${escape(M.notFoundTitle)}</h1>`), 404);
    const after = (reply: FastifyReply, result: StepResult, form?: Record<string, unknown>) => {
      if (!result.payment) return notFound(reply);
      if (result.kind === 'done') return reply.redirect(result.payment.return_url, 303);
      if (result.kind === 'challenge') return reply.redirect(`/provider/pay/${result.payment.payment_id}`, 303);
      if (result.kind === 'formError') return send(reply, pageOf(result.payment, result.message, form), 422);
      return send(reply, pageOf(result.payment), 409);
    };
    // Until the store is open there is no provider to answer for.
    const unavailable = (reply: FastifyReply) => send(reply, framedPage(M.notFoundTitle, ''), 503);
    const formOf = (body: unknown): Record<string, unknown> =>
      body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

    pages.get('/provider/assets/provider.css', async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(STYLE),
    );
    pages.get<{ Params: { id: string } }>('/provider/pay/:id', async (request, reply) => {
      const provider = providerOf();
      if (!provider) return unavailable(reply);
      const p = PAYMENT_ID.test(request.params.id) ? await provider.payment(request.params.id) : null;
      return p ? send(reply, pageOf(p)) : notFound(reply);
    });
    pages.post<{ Params: { id: string; step: string } }>('/provider/pay/:id/:step', async (request, reply) => {
      const provider = providerOf();
      if (!provider) return unavailable(reply);
      const { id, step } = request.params;
      if (!PAYMENT_ID.test(id)) return notFound(reply);
      const form = formOf(request.body);
      switch (step) {
        case 'card':
          return after(reply, await provider.submitCard(id, form), form);
        case 'challenge':
          return after(reply, await provider.submitChallenge(id, form.code));
        case 'confirm':
          return after(reply, await provider.confirm(id));
        case 'cancel':
          return after(reply, await provider.cancel(id));
        default:
          return notFound(reply);
      }
    });
  });
}
