import { ProviderError } from './errors';
import type * as s from './schemas';

/** How integrations often spell key types, and the provider's spelling of each (it takes upper case only). */
const KEY_TYPE_SPELLINGS: Record<string, s.PixKeyType> = {
  cpf: 'CPF',
  email: 'EMAIL',
  'e-mail': 'EMAIL',
  phone: 'PHONE',
  celular: 'PHONE',
  evp: 'EVP',
  random: 'EVP',
};

/**
 * A refused cash-out key said in the integrator's terms: the provider's 400 names only the path and the allowed
 * values, while the usual cause is a key type in lower case (`cpf`, `e-mail`) or a phone key without `+55`.
 */
export function explainKeyRefusal(body: s.CashOutRequest) {
  return (error: unknown): never => {
    if (!(error instanceof ProviderError) || error.status !== 400) throw error;
    const key = body.payment.key as { type?: unknown; value?: unknown } | undefined;
    const item = (path: string) => error.validation.find((v) => v.path === path);
    let hint: string | undefined;
    if (item('/payment/key/type')?.code === 'enum') {
      const sent = String(key?.type);
      const meant = KEY_TYPE_SPELLINGS[sent.toLowerCase()];
      hint =
        `key type "${sent}" is not one the provider accepts: write it in upper case, one of CPF, EMAIL, PHONE or EVP` +
        (meant && meant !== sent ? ` ("${meant}" here)` : '');
    } else if (item('/payment/key/value') && key?.type === 'PHONE' && typeof key.value === 'string' && !key.value.startsWith('+')) {
      const digits = key.value.replace(/\D/g, '');
      hint =
        'a PHONE key is +55, the area code and the number (for example +5511987654321), not bare digits' +
        (/^\d{10,11}$/.test(digits) ? ` ("+55${digits}" here)` : '');
    }
    if (!hint) throw error;
    throw new ProviderError({
      status: error.status,
      ...(error.errorName === undefined ? {} : { errorName: error.errorName }),
      ...(error.code === undefined ? {} : { code: error.code }),
      details: error.details,
      message: `${error.message}: ${hint}`,
      raw: error.raw,
      cause: error,
    });
  };
}
