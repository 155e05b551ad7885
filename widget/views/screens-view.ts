/**
 * Which screen of the lazy chunk shows, and what its buttons and fields do: the chunk's half of views/index.ts's
 * `renderScreen`, with the handlers the element would otherwise carry in the entry (the payer form's fields and
 * submit, a refused CPF's ways on, the receipt's continue link, a renewal).
 */
import type { TemplateResult } from 'lit';
import type { sessionSteps } from '../session-steps.js';
import type { ScreenView } from './index.js';
import type { Kit } from './kit.js';
import type { openFinanceScreens } from './openfinance.js';
import type { outcomeScreens } from './outcome.js';
import type { startScreens } from './payer-form.js';

type Screens = ReturnType<typeof outcomeScreens> & ReturnType<typeof startScreens> & ReturnType<typeof openFinanceScreens>;

export function screensView(k: Kit, screens: Screens, steps: ReturnType<typeof sessionSteps>) {
  const { errorMessage, emit, checkoutDetail } = k;

  /** The screen of `view`, when it is one of the chunk's. */
  return function render(view: ScreenView): TemplateResult | undefined {
    const { ctx, screen, checkout, state, session, host, continueUrl } = view;
    const { t } = ctx;
    const outcome = {
      continueUrl,
      onContinue: (event: MouseEvent) => {
        if (!checkout || !continueUrl) return;
        const detail = { ...checkoutDetail(checkout), url: continueUrl };
        if (!emit(host, 'pix-checkout-continue', detail, { cancelable: true })) event.preventDefault();
      },
      onRenew: () => steps.renew(session),
      onChooseOther: () => session.offerMethods(),
    };
    switch (screen.name) {
      case 'payer':
        return screens.renderPayerForm(t, {
          method: screen.method,
          cpf: session.state.cpf,
          name: session.state.payerName,
          problem: session.state.cpfProblem,
          canGoBack: ctx.offered.length > 1,
          onCpfInput: (cpf) => steps.typeCpf(session, cpf),
          onNameInput: (event) => session.set({ payerName: (event.target as HTMLInputElement).value }),
          onSubmit: async (event) => {
            event.preventDefault();
            if (steps.submitPayer(session)) return;
            await host.updateComplete;
            host.renderRoot.querySelector<HTMLInputElement>('#cpf')?.focus();
          },
          onBack: () => session.offerMethods(),
        });
      case 'refused':
        return screens.renderRefused(ctx, {
          method: screen.method,
          message: errorMessage(t, { status: 422, code: screen.code }),
          onUseAnotherCpf: () => {
            view.focusNext('#cpf');
            steps.useAnotherCpf(session);
          },
          onPayWithPix: () => steps.payWithPix(session),
        });
      case 'conflict':
        // Shows the live checkout another tab or device made, instead of the method chosen here.
        return checkout ? screens.renderConflict(ctx, checkout, () => session.set({ screen: { name: 'checkout' } })) : undefined;
      case 'checkout':
        if (!checkout || !state) return undefined;
        switch (state) {
          case 'Created':
          case 'Registered':
            // The entry draws PIX's; Open Finance's is here.
            return checkout.method === 'openfinance' ? screens.renderOpenFinancePending(ctx, checkout, view.remainingMs) : undefined;
          case 'Completed':
            return screens.renderReceipt(ctx, checkout, outcome);
          case 'Expired':
            return screens.renderExpired(ctx, checkout, outcome);
          default:
            return screens.renderFailure(ctx, state, outcome, checkout.method);
        }
      default:
        return undefined;
    }
  };
}
