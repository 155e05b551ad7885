/**
 * A software passkey for the HTTP tests (the e2e drives Chromium's virtual authenticator instead): one P-256 key that
 * answers a registration (`none` attestation) and assertions to the options the BFF made, as `@simplewebauthn/browser`
 * would send them, its signature counter going up by one each time.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const uint32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};

export function softPasskey(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  const coseKey = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  let counter = 0;
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  // User present and verified.
  const flags = (extra = 0) => Buffer.from([0x01 | 0x04 | extra]);

  return {
    id: b64url(credentialId),
    /** The answer to `POST /me/mfa/passkeys/options`. */
    register(options: { challenge: string; rp: { id: string } }) {
      const credential = Buffer.concat([Buffer.alloc(16), Buffer.from([0, credentialId.length]), credentialId, isoCBOR.encode(coseKey)]);
      const authData = Buffer.concat([sha256(options.rp.id), flags(0x40), uint32(counter), credential]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]) as never,
      );
      const response = {
        clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      };
      return { id: this.id, rawId: this.id, type: 'public-key', response, clientExtensionResults: {} };
    },
    /** The answer to the options of a sign-in's second step or of a step-up. */
    assert(options: { challenge: string; rpId: string }) {
      const authenticatorData = Buffer.concat([sha256(options.rpId), flags(), uint32(++counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey);
      const response = {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      };
      return { id: this.id, rawId: this.id, type: 'public-key', response, clientExtensionResults: {} };
    },
  };
}
