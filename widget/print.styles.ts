/**
 * The receipt on paper (or in a PDF, from "Salvar comprovante"): on the receipt screen only the heading, the message
 * and the list print, black on white, in either theme; buttons, links dressed as buttons, the outcome icon, the live
 * region and spinners never print. `!important` because the page's `::part()` rules would otherwise win over the
 * element's own (for print, the element's word is the last). The page's content around the element is the page's:
 * README, "A receipt to keep".
 */
import { css } from 'lit';

export default css`
  @media print {
    :host {
      max-width: none !important;
      color: #000000 !important;
    }
    .base,
    .base * {
      color: #000000 !important;
      background: #ffffff !important;
      border-color: #000000 !important;
      box-shadow: none !important;
    }
    .base {
      border: 0 !important;
      padding: 0 !important;
    }
    button,
    .button,
    .actions,
    .spinner,
    .result .icon,
    [role='status'] {
      display: none !important;
    }
    .success {
      justify-items: start;
      text-align: start;
    }
    .receipt {
      width: 100%;
    }
    .receipt-row {
      break-inside: avoid;
    }
    .receipt a::after {
      content: ' (' attr(href) ')';
      overflow-wrap: anywhere;
    }
    .qr-background {
      fill: #ffffff !important;
    }
    .qr-modules {
      fill: #000000 !important;
    }
  }
`;
