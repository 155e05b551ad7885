/**
 * A one-page PDF receipt written by hand: the format is simple enough for a handful of text lines, and a PDF
 * library would be a dependency for one sandbox page.
 */
import { maskCpf } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import type { TransactionRecord } from '../provider/schemas';
import { formatDateBr } from './format';

/** PDF string literal in WinAnsi (Latin-1) with the three special characters escaped. */
const pdfText = (text: string) => `(${text.replace(/[^\x20-\xff]/g, '?').replace(/[\\()]/g, (ch) => `\\${ch}`)})`;

export function receiptLines(record: TransactionRecord): string[] {
  const t = record.transaction;
  const party = (p: TransactionRecord['transaction']['payer']) =>
    p ? `${p.name ?? ''} - ${p.taxNumber && p.taxNumber.length === 11 ? maskCpf(p.taxNumber) : (p.taxNumber ?? '')}` : '-';
  return [
    'Comprovante de transferência PIX',
    '',
    `Valor: ${formatMoney(t.receiptAmount ?? t.amount)}`,
    `Data: ${t.receiptDate ? formatDateBr(t.receiptDate) : '-'} (horário de Brasília)`,
    `Pagador: ${party(t.payer)}`,
    `Recebedor: ${party(t.recipient)}`,
    `Transação: ${t.id}`,
    `Autenticação: ${t.receiptVoucher ?? '-'}`,
    '',
    'Ambiente de testes (sandbox): documento sem valor.',
  ];
}

export function receiptPdf(record: TransactionRecord): Buffer {
  const text = receiptLines(record).map((line, i) => (i === 0 ? `${pdfText(line)} Tj` : `T* ${pdfText(line)} Tj`));
  const content = `BT /F1 12 Tf 18 TL 56 780 Td ${text.join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
