/**
 * The browser's side of a passkey (`@simplewebauthn/browser`): the options the BFF made go to the authenticator, its
 * answer goes back as it came. A ceremony the user cancelled, or that timed out, is one pt-BR message.
 */
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { PasskeyOptions } from '../api-base';

type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
type AuthenticationOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** What the page says when the ceremony did not end with an answer. */
function passkeyError(error: unknown): Error {
  const code = error instanceof WebAuthnError ? error.code : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new Error('Esta chave de acesso já está cadastrada.');
  if ((error as Error)?.name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED')
    return new Error('A chave de acesso não respondeu ou foi cancelada. Tente de novo.');
  return new Error('Este navegador não conseguiu usar a chave de acesso.');
}

/** A new credential for the registration `options`. */
export async function createPasskey(options: PasskeyOptions): Promise<unknown> {
  try {
    return await startRegistration({ optionsJSON: options as unknown as RegistrationOptions });
  } catch (error) {
    throw passkeyError(error);
  }
}

/** An assertion to the challenge of `options`. */
export async function usePasskey(options: PasskeyOptions): Promise<unknown> {
  try {
    return await startAuthentication({ optionsJSON: options as unknown as AuthenticationOptions });
  } catch (error) {
    throw passkeyError(error);
  }
}

/** Whether this browser offers WebAuthn at all. */
export const passkeysAvailable = () => typeof window !== 'undefined' && 'PublicKeyCredential' in window;
