/** Every user-facing string of `<pix-checkout>`, per locale. Portuguese (Brazil) is the default. */

export type Locale = 'pt-BR' | 'en';

export interface Strings {
  chooseMethod: string;
  methodPix: string;
  methodPixHint: string;
  methodOpenFinance: string;
  methodOpenFinanceHint: string;
  payerTitlePix: string;
  payerTitleOpenFinance: string;
  payerIntroPix: string;
  payerIntroOpenFinance: string;
  cpfLabel: string;
  cpfOptionalLabel: string;
  nameLabel: string;
  cpfInvalid: string;
  cpfRequired: string;
  cpfNeededForName: string;
  submitPix: string;
  submitOpenFinance: string;
  back: string;
  loading: string;
  amountLabel: string;
  qrLabel: string;
  scanHint: string;
  codeLabel: string;
  codeHint: string;
  copy: string;
  copied: string;
  copyFailed: string;
  awaitingPayment: string;
  openFinanceTitle: string;
  openFinanceRedirecting: string;
  openFinanceGoToBank: string;
  completedTitle: string;
  completedText: string;
  errorTitle: string;
  errorText: string;
  cancelledTitle: string;
  cancelledText: string;
  reversedTitle: string;
  reversedText: string;
  tryAgain: string;
  startFailedTitle: string;
  retry: string;
  networkError: string;
  missingConfiguration: string;
  orderTokenRequired: string;
  orderTokenInvalid: string;
  orderTokenExpired: string;
}

const ptBR: Strings = {
  chooseMethod: 'Como você quer pagar?',
  methodPix: 'PIX',
  methodPixHint: 'QR code ou PIX copia e cola',
  methodOpenFinance: 'Open Finance',
  methodOpenFinanceHint: 'Pague direto pelo app do seu banco',
  payerTitlePix: 'Identificação (opcional)',
  payerTitleOpenFinance: 'Seus dados',
  payerIntroPix: 'Informe seu CPF para um PIX identificado, ou deixe em branco.',
  payerIntroOpenFinance: 'Informe o CPF do titular da conta que vai pagar.',
  cpfLabel: 'CPF',
  cpfOptionalLabel: 'CPF (opcional)',
  nameLabel: 'Nome (opcional)',
  cpfInvalid: 'CPF inválido. Confira os 11 dígitos.',
  cpfRequired: 'Informe o CPF para continuar.',
  cpfNeededForName: 'Informe também o CPF, ou deixe o nome em branco.',
  submitPix: 'Gerar código PIX',
  submitOpenFinance: 'Continuar no meu banco',
  back: 'Voltar',
  loading: 'Preparando o pagamento…',
  amountLabel: 'Valor',
  qrLabel: 'QR code do pagamento PIX',
  scanHint: 'Abra o app do seu banco e escaneie o QR code.',
  codeLabel: 'PIX copia e cola',
  codeHint: 'Copie o código e cole no app do seu banco, na opção PIX copia e cola.',
  copy: 'Copiar código',
  copied: 'Código copiado',
  copyFailed: 'Não foi possível copiar. O código está selecionado: copie manualmente.',
  awaitingPayment: 'Aguardando o pagamento…',
  openFinanceTitle: 'Continue no seu banco',
  openFinanceRedirecting: 'Estamos levando você ao seu banco para autorizar o pagamento.',
  openFinanceGoToBank: 'Ir para o banco',
  completedTitle: 'Pagamento confirmado',
  completedText: 'Recebemos o seu pagamento. Obrigado!',
  errorTitle: 'O pagamento não foi concluído',
  errorText: 'Houve um problema com o pagamento. Nenhum valor foi cobrado.',
  cancelledTitle: 'Pagamento cancelado',
  cancelledText: 'Este pagamento foi cancelado.',
  reversedTitle: 'Pagamento estornado',
  reversedText: 'Este pagamento foi estornado e o valor devolvido.',
  tryAgain: 'Tentar novamente',
  startFailedTitle: 'Não foi possível iniciar o pagamento',
  retry: 'Tentar novamente',
  networkError: 'Sem conexão com o servidor. Verifique sua internet.',
  missingConfiguration: 'Pagamento indisponível: configuração incompleta da página.',
  orderTokenRequired: 'Não conseguimos confirmar que este pedido é seu. Volte para a loja e abra o pedido novamente.',
  orderTokenInvalid: 'Este link de pagamento não vale para este pedido. Volte para a loja e abra o pedido novamente.',
  orderTokenExpired: 'Este link de pagamento expirou. Recarregue a página ou volte para a loja.',
};

const en: Strings = {
  chooseMethod: 'How would you like to pay?',
  methodPix: 'PIX',
  methodPixHint: 'QR code or PIX copy and paste',
  methodOpenFinance: 'Open Finance',
  methodOpenFinanceHint: 'Pay straight from your bank app',
  payerTitlePix: 'Identification (optional)',
  payerTitleOpenFinance: 'Your details',
  payerIntroPix: 'Enter your CPF for an identified PIX, or leave it blank.',
  payerIntroOpenFinance: 'Enter the CPF of the account holder who will pay.',
  cpfLabel: 'CPF',
  cpfOptionalLabel: 'CPF (optional)',
  nameLabel: 'Name (optional)',
  cpfInvalid: 'Invalid CPF. Check the 11 digits.',
  cpfRequired: 'Enter your CPF to continue.',
  cpfNeededForName: 'Enter your CPF too, or leave the name blank.',
  submitPix: 'Create PIX code',
  submitOpenFinance: 'Continue at my bank',
  back: 'Back',
  loading: 'Preparing your payment…',
  amountLabel: 'Amount',
  qrLabel: 'QR code of the PIX payment',
  scanHint: 'Open your bank app and scan the QR code.',
  codeLabel: 'PIX copy and paste code',
  codeHint: 'Copy the code and paste it in your bank app, under PIX copy and paste.',
  copy: 'Copy code',
  copied: 'Code copied',
  copyFailed: 'Could not copy. The code is selected: copy it manually.',
  awaitingPayment: 'Waiting for your payment…',
  openFinanceTitle: 'Continue at your bank',
  openFinanceRedirecting: 'We are taking you to your bank to authorize the payment.',
  openFinanceGoToBank: 'Go to your bank',
  completedTitle: 'Payment confirmed',
  completedText: 'We received your payment. Thank you!',
  errorTitle: 'The payment did not go through',
  errorText: 'Something went wrong with the payment. You were not charged.',
  cancelledTitle: 'Payment cancelled',
  cancelledText: 'This payment was cancelled.',
  reversedTitle: 'Payment reversed',
  reversedText: 'This payment was reversed and the money returned.',
  tryAgain: 'Try again',
  startFailedTitle: 'We could not start the payment',
  retry: 'Try again',
  networkError: 'Cannot reach the server. Check your connection.',
  missingConfiguration: 'Payment unavailable: the page is not fully configured.',
  orderTokenRequired: 'We could not confirm this order is yours. Go back to the shop and open the order again.',
  orderTokenInvalid: 'This payment link is not valid for this order. Go back to the shop and open the order again.',
  orderTokenExpired: 'This payment link has expired. Reload the page or go back to the shop.',
};

const catalog: Record<Locale, Strings> = { 'pt-BR': ptBR, en };

/** "en", "en-US", "EN" → English; anything else → Portuguese (Brazil). */
export function toLocale(lang: string | null | undefined): Locale {
  return /^en\b/i.test(lang ?? '') ? 'en' : 'pt-BR';
}

export function stringsFor(locale: Locale): Strings {
  return catalog[locale];
}

/** Error codes of the BFF that the element words itself, in the page's language, instead of showing the server's text. */
const CODE_STRINGS: Readonly<Record<string, keyof Strings>> = {
  order_token_required: 'orderTokenRequired',
  order_token_invalid: 'orderTokenInvalid',
  order_token_expired: 'orderTokenExpired',
};

/** The element's own text for an error code, or undefined when it shows the server's message for that code. */
export function messageForCode(t: Strings, code: string): string | undefined {
  const key = Object.hasOwn(CODE_STRINGS, code) ? CODE_STRINGS[code] : undefined;
  return key && t[key];
}
