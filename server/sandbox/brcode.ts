/**
 * PIX BR Code (EMV QRCPS merchant-presented mode), dynamic form: the payload points to a location URL instead of
 * carrying a key. Encoder for the emulator, decoder and CRC check for tests and anyone debugging a code.
 */

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final xor), as the BR Code requires. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return id + String(value.length).padStart(2, '0') + value;
}

/** Payment apps reject non-ASCII in name and city, so accents are dropped ("São Paulo" → "SAO PAULO"). */
const ascii = (text: string, max: number) =>
  text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .toUpperCase()
    .slice(0, max)
    .trim();

export interface BrCodeInput {
  /** Location of the charge without scheme, at most 77 characters: `<host>/…/QR/cob/<32 hex>`. */
  location: string;
  /** Two-decimal amount such as "10.50"; leave out when the payer chooses the amount. */
  amount?: string;
  merchantName: string;
  merchantCity: string;
  /** Reference label (field 62-05), at most 25 characters. */
  reference: string;
}

export function encodeBrCode(input: BrCodeInput): string {
  if (input.location.length > 77) throw new Error('BR Code location must be at most 77 characters');
  if (!/^[A-Za-z0-9]{1,25}$/.test(input.reference)) throw new Error('BR Code reference must be 1–25 letters or digits');
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', input.location)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (input.amount === undefined ? '' : tlv('54', input.amount)) +
    tlv('58', 'BR') +
    tlv('59', ascii(input.merchantName, 25)) +
    tlv('60', ascii(input.merchantCity, 15)) +
    tlv('62', tlv('05', input.reference)) +
    '6304';
  return body + crc16(body);
}

export type TlvFields = Record<string, string>;

/** Splits one level of ID-length-value fields; throws on a truncated or malformed payload. */
export function parseTlv(text: string): TlvFields {
  const fields: TlvFields = {};
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(at + 2, at + 4)) || at + 4 + length > text.length)
      throw new Error(`Malformed BR Code field at position ${at}`);
    fields[id] = text.slice(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return fields;
}

export interface DecodedBrCode {
  fields: TlvFields;
  /** Subfields of the PIX merchant account template (26). */
  merchantAccount: TlvFields;
  /** Subfields of the additional data template (62). */
  additionalData: TlvFields;
  /** True when field 63 holds the CRC of everything before its value. */
  crcValid: boolean;
  /** Field 54, absent when the payer chooses the amount. */
  amount?: string;
  /** Field 26-25, the charge location without scheme. */
  location?: string;
  /** Field 62-05. */
  reference?: string;
  merchantName?: string;
  merchantCity?: string;
}

export function decodeBrCode(code: string): DecodedBrCode {
  const fields = parseTlv(code);
  const crcAt = code.lastIndexOf('6304');
  const crcValid = crcAt === code.length - 8 && crc16(code.slice(0, crcAt + 4)) === code.slice(crcAt + 4);
  const merchantAccount = fields['26'] ? parseTlv(fields['26']) : {};
  const additionalData = fields['62'] ? parseTlv(fields['62']) : {};
  return {
    fields,
    merchantAccount,
    additionalData,
    crcValid,
    amount: fields['54'],
    location: merchantAccount['25'],
    reference: additionalData['05'],
    merchantName: fields['59'],
    merchantCity: fields['60'],
  };
}
