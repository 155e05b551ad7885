/**
 * Public addresses the partner API hands out (no token, as in the provider's responses): the QR image, the
 * receipt, and the BR Code location. The bank page lives in checkout.ts.
 */
import { Hono } from 'hono';
import QRCode from 'qrcode';
import { formatCents, requireCents } from '../../../core/money';
import type { SandboxContext } from '../context';
import { methodNotAllowed, notFound } from '../errors';
import { receiptPdf } from '../receipt-pdf';

/** Status names of a BCB charge ("cob"), which is what a BR Code location describes. */
const COB_STATUS: Record<string, string> = { Completed: 'CONCLUIDA', Registered: 'ATIVA' };

export function systemRoutes(ctx: SandboxContext) {
  return (
    new Hono()
      .get('/system/qrcodeviewer/:transactionId', async (c) => {
        const tx = ctx.store.get(c.req.param('transactionId'));
        const code = tx?.record.payment.qrCode;
        if (!code) throw notFound('No QR code for this transaction');
        const svg = await QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
        return c.body(svg, 200, { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=3600' });
      })
      .get('/system/e-receipt/:transactionId/receipt.pdf', (c) => {
        const tx = ctx.store.get(c.req.param('transactionId'));
        if (!tx || tx.record.transaction.state !== 'Completed') throw notFound('No receipt for this transaction');
        return c.body(new Uint8Array(receiptPdf(tx.record)), 200, {
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="receipt-${tx.record.transaction.id}.pdf"`,
        });
      })
      // A real location answers a signed charge (JWS) for the payer's bank; the sandbox answers its content as JSON.
      .get('/QR/cob/:cobId', (c) => {
        const tx = ctx.store.getByCob(c.req.param('cobId'));
        if (!tx) throw notFound('No charge at this location');
        const t = tx.record.transaction;
        return c.json({
          txid: t.id,
          status: COB_STATUS[t.state] ?? 'REMOVIDA_PELO_PSP',
          calendario: { criacao: t.date },
          valor: { original: formatCents(requireCents(t.amount)), modalidadeAlteracao: tx.internal.editable ? 1 : 0 },
          solicitacaoPagador: t.orderDescription ?? undefined,
        });
      })
      .all('/system/qrcodeviewer/:transactionId', methodNotAllowed)
      .all('/system/e-receipt/:transactionId/receipt.pdf', methodNotAllowed)
      .all('/QR/cob/:cobId', methodNotAllowed)
  );
}
