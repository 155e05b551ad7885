/**
 * Portuguese (Brazil): the strings of the screens in the lazy chunk (the receipt and the other outcomes, the payer
 * form, a refused CPF, another method live), in that chunk with them; it adds them to the entry's `ptBR` as it comes
 * (views/later.ts), before any of its screens draws. Keys with the entry's strings: pt-br.ts.
 */
export const ptBRLater = {
  payerIntroPix: 'Informe seu CPF para um Pix identificado, ou deixe em branco.',
  payerIntroOpenFinance: 'Informe o CPF do titular da conta que vai pagar.',
  cpfLabel: 'CPF',
  cpfOptionalLabel: 'CPF (opcional)',
  nameLabel: 'Nome (opcional)',
  submitPix: 'Gerar código Pix',
  submitOpenFinance: 'Continuar no meu banco',
  payWithPixNoCpf: 'Pagar com Pix sem CPF',
  conflictPix: 'Este pedido já tem um código Pix ativo, criado em outra aba ou aparelho. Para você não pagar duas vezes, continue com ele.',
  conflictOpenFinance:
    'Este pedido já tem um pagamento Open Finance em andamento, iniciado em outra aba ou aparelho. Para você não pagar duas vezes, continue com ele.',
  conflictWait: 'Para pagar de outra forma, espere esse pagamento expirar.',
  continueWithPix: 'Continuar com Pix',
  continueWithOpenFinance: 'Continuar com Open Finance',
  completedText: 'Recebemos o seu pagamento. Obrigado!',
  completedTextMerchant: '{merchant} recebeu o seu pagamento. Obrigado!',
  receiptAmount: 'Valor',
  receiptDate: 'Data',
  receiptOrder: 'Pedido',
  receiptTransaction: 'ID da transação',
  receiptPayerBank: 'Banco pagador',
  receiptVoucher: 'Comprovante do banco',
  receiptVoucherLink: 'Ver comprovante',
  saveReceipt: 'Salvar comprovante',
  errorTextPix: 'O banco recusou este Pix e ele não foi processado. Nenhum valor foi cobrado: você pode tentar de novo.',
  errorTextOpenFinance:
    'O pagamento não foi autorizado no seu banco: ele foi recusado lá. Nenhum valor foi cobrado: você pode tentar de novo.',
  cancelledText: 'Este pagamento foi cancelado e nada foi cobrado por ele. Você pode pagar de novo.',
  reversedText: 'O valor foi devolvido para a conta que pagou, e o pedido ficou sem pagamento.',
  expiredText: 'O prazo para pagar terminou. Gere um novo código para pagar.',
  expiredLate: 'Já pagou? Fique nesta página: se o pagamento chegar, a confirmação aparece aqui.',
  renewPix: 'Gerar novo código',
  renewOpenFinance: 'Começar de novo',
  chooseOther: 'Escolher outra forma de pagamento',
  tryAgain: 'Tentar novamente',
  payAgain: 'Pagar novamente',
};
