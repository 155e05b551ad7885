/**
 * Portuguese (Brazil), the default: the strings of the screens the entry draws (the first QR's). Those of the screens
 * in the lazy chunk are in pt-br-screens.ts, which the chunk adds to this object as it comes (views/screens.ts); `Strings`
 * is both. `{name}` marks a value filled in.
 */
import type { MethodLabel } from '../../core/method-labels.js';
import type { ptBRScreens } from './pt-br-screens.js';

export const ptBR = {
  chooseMethod: 'Como você quer pagar?',
  payingTo: 'Pagamento para {merchant}',
  methodPix: 'Pix' satisfies MethodLabel<'pix'>,
  methodPixHint: 'QR code ou Pix Copia e Cola, confirmado na hora',
  methodOpenFinance: 'Open Finance' satisfies MethodLabel<'openfinance'>,
  methodOpenFinanceHint: 'Autorize no app do seu banco, sem copiar código',
  payerTitlePix: 'Identificação (opcional)',
  payerTitleOpenFinance: 'Seus dados',
  loading: 'Preparando o pagamento…',
  conflictTitle: 'Já existe um pagamento em andamento',
  pixTitle: 'Pague com Pix',
  amountLabel: 'Valor',
  countdown: 'Pague em até',
  countdownClock: '(até {time})',
  countdownUntil: 'Pague até {date}',
  countdownMinutes: 'Faltam {n} minutos para pagar.',
  countdownOneMinute: 'Falta 1 minuto para pagar.',
  copy: 'Copiar código Pix',
  copied: 'Copiado',
  copiedAnnouncement: 'Código copiado.',
  nextStep: 'Agora abra o app do seu banco e cole em Pix Copia e Cola.',
  copyFailed: 'Não foi possível copiar. O código está selecionado: copie manualmente.',
  codeLabel: 'Pix Copia e Cola',
  showCode: 'Ver código completo',
  hideCode: 'Ocultar código',
  qrLabel: 'QR code do pagamento Pix',
  qrOtherDevice: 'Pagando por outro aparelho? Escaneie o QR code.',
  howToPay: 'Como pagar',
  stepOpenApp: 'Abra o app do seu banco e escolha pagar com Pix.',
  stepScan: 'Escaneie o QR code ou cole o código em Pix Copia e Cola.',
  stepPaste: 'Toque em Pix Copia e Cola e cole o código copiado.',
  stepConfirm: 'Confira o valor e confirme. A confirmação aparece aqui.',
  awaitingPayment: 'Aguardando o pagamento…',
  openFinanceTitle: 'Continue no seu banco',
  completedTitle: 'Pagamento confirmado',
  errorTitle: 'O pagamento não foi concluído',
  cancelledTitle: 'Pagamento cancelado',
  reversedTitle: 'Pagamento estornado',
  expiredTitle: 'Código expirado',
  startFailedTitle: 'Não foi possível iniciar o pagamento',
  retry: 'Tentar novamente',
  backToShop: 'Voltar para a loja',
  errNetwork: 'Não conseguimos falar com o serviço de pagamento. Pode ser a conexão ou uma falha do serviço: tente de novo em instantes.',
  errClient: 'Não foi possível processar este pagamento. Recarregue a página e tente de novo.',
  errServer: 'O serviço de pagamento está com problemas. Tente de novo em instantes.',
};

/** Every string of a language: the same keys in English and Spanish (a missing one is a compile error). */
export type Strings = Record<keyof typeof ptBR | keyof typeof ptBRScreens, string>;
