/** Public addresses the emulator hands out; every one is served by the emulator itself (routes/system.ts). */

/** Where the main server mounts the emulator; the partner API is then at `/sandbox/v1/partners-int`. */
export const MOUNT_PATH = '/sandbox';

export interface Addresses {
  qrCodeLocation(transactionId: string): string;
  receipt(transactionId: string): string;
  checkout(uuid: string, transactionId: string): string;
  /** The BR Code location (field 26-25): no scheme, as PIX requires. */
  cobLocation(cobId: string): string;
}

export function createAddresses(publicBaseUrl: string): Addresses {
  const url = new URL(publicBaseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('publicBaseUrl must be an http(s) URL');
  const base = url.href.replace(/\/+$/, '') + MOUNT_PATH;
  const schemeless = base.replace(/^https?:\/\//, '');
  const addresses: Addresses = {
    qrCodeLocation: (id) => `${base}/v1/system/qrcodeviewer/${encodeURIComponent(id)}`,
    receipt: (id) => `${base}/v1/system/e-receipt/${encodeURIComponent(id)}/receipt.pdf`,
    checkout: (uuid, id) => `${base}/v1/system/checkout/init/${uuid}/${encodeURIComponent(id)}`,
    cobLocation: (cobId) => `${schemeless}/v1/QR/cob/${cobId}`,
  };
  // Fail at start-up rather than on the first cash-in: the BR Code allows 77 characters for the location.
  if (addresses.cobLocation('0'.repeat(32)).length > 77) throw new Error('publicBaseUrl is too long for a BR Code location');
  return addresses;
}
