/**
 * The styles only the screens of the lazy chunk use (the payer form's fields, the receipt), and the receipt on
 * paper; the chunk brings them and the entry adopts them beside its own (views/index.ts), after them.
 */
import type { CSSResult } from 'lit';
import type { Kit } from './views/kit.js';

/*
 * Printing (the receipt, or a PDF from "Salvar comprovante"): on the receipt screen only the heading, the message and
 * the list print, black on white, in either theme; buttons, links dressed as buttons, the outcome icon, the live
 * region and spinners never print. `!important` because the page's `::part()` rules would otherwise win over the
 * element's own (for print, the element's word is the last). The page's content around the element is the page's:
 * README, "A receipt to keep". Here with the screens of the chunk, which the entry asks for as soon as the first QR
 * shows: printing before it came prints the page as it is.
 */
export const payerReceiptStyles = ({ css }: Pick<Kit, 'css'>): CSSResult => css`
  dl,
  dd {
    margin: 0;
  }
  .form {
    display: grid;
    gap: calc(var(--pix-spacing) * 0.75);
    margin: 0;
    min-width: 0;
  }
  .field-error {
    color: var(--pix-color-danger);
  }
  .success .icon {
    background: var(--pix-color-success);
  }
  .expired .icon,
  .notice .icon {
    background: var(--pix-color-notice);
  }
  .field {
    display: grid;
    gap: 0.25em;
  }
  input {
    font: inherit;
    color: inherit;
    background: var(--pix-color-background);
    border: 1px solid var(--pix-color-border);
    border-radius: calc(var(--pix-radius) / 2);
    padding: 0.5em 0.75em;
    width: 100%;
  }
  input[aria-invalid='true'] {
    border-color: var(--pix-color-danger);
  }
  .success .title {
    color: var(--pix-color-success);
  }
  .receipt {
    display: grid;
    width: min(100%, 24rem);
    text-align: start;
    border-top: 1px solid var(--pix-color-border);
  }
  .receipt-row {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 1em;
    padding-block: 0.4em;
    border-bottom: 1px solid var(--pix-color-border);
  }
  .receipt dt {
    color: var(--pix-color-muted);
  }
  .receipt dd {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
  }
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
