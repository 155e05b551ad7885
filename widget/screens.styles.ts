/** The screens' own styles: summary and countdown, the PIX screen (copy first on touch), outcomes and the receipt. */
import { css } from 'lit';

export default css`
  .summary {
    display: grid;
    gap: 0.125em;
  }
  .amount {
    font-size: 1.75em;
    font-weight: 700;
    line-height: 1.2;
  }
  .countdown {
    font-weight: 600;
  }
  .countdown-time {
    font-variant-numeric: tabular-nums;
  }
  .countdown.urgent {
    color: var(--pix-color-danger);
  }
  .copy {
    display: grid;
    gap: 0.5em;
  }
  .copy-button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5em;
    width: 100%;
    min-height: 3.25rem;
    font-size: 1.125em;
    font-weight: 600;
  }
  .copy-button.copied {
    background: var(--pix-color-success);
    border-color: var(--pix-color-success);
  }
  .icon-svg {
    flex: none;
    width: 1.25em;
    height: 1.25em;
  }
  .next-step {
    font-weight: 600;
  }
  .code-box {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    align-items: center;
    gap: 0.25em 0.75em;
  }
  .code-label {
    grid-column: 1 / -1;
    color: var(--pix-color-muted);
    font-size: 0.9em;
  }
  .code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  .code.expanded {
    grid-column: 1 / -1;
    user-select: all;
    padding: 0.5em 0.75em;
    border: 1px solid var(--pix-color-border);
    border-radius: calc(var(--pix-radius) / 2);
  }
  .code:not(.expanded) .code-middle {
    display: none;
  }
  .code:not(.expanded) .code-end::before {
    content: '…';
  }
  .code-toggle {
    padding: 0.35em 0.75em;
    font-size: 0.9em;
  }
  .code.expanded + .code-toggle {
    justify-self: start;
  }
  .scan-row {
    display: grid;
    gap: var(--pix-spacing);
    justify-items: center;
  }
  @container pix (min-width: 34rem) {
    .scan-row {
      grid-template-columns: auto minmax(0, 1fr);
      align-items: center;
      justify-items: start;
    }
  }
  .scan {
    display: grid;
    justify-items: center;
    gap: 0.5em;
    text-align: center;
  }
  .qr {
    width: var(--pix-qr-size);
    height: var(--pix-qr-size);
  }
  .qr-background {
    fill: var(--pix-qr-background);
  }
  .qr-modules {
    fill: var(--pix-qr-color);
  }
  .how {
    display: grid;
    gap: 0.25em;
  }
  .how-title {
    font-size: 1em;
    font-weight: 600;
  }
  .steps {
    display: grid;
    gap: 0.25em;
    padding-inline-start: 1.25em;
  }
  .status {
    display: flex;
    align-items: center;
    gap: 0.5em;
    color: var(--pix-color-muted);
  }
  .spinner {
    flex: none;
    width: 1em;
    height: 1em;
    border: 2px solid var(--pix-color-border);
    border-top-color: var(--pix-color-primary);
    border-radius: 50%;
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
  .result {
    justify-items: center;
    text-align: center;
  }
  /* The page's fallback children, when the checkout cannot start: items of the screen's grid, no box when none. */
  .fallback {
    display: contents;
  }
  .result .icon {
    display: grid;
    place-items: center;
    width: 3em;
    height: 3em;
    border-radius: 50%;
    color: #ffffff;
  }
  .result .icon svg {
    width: 1.75em;
    height: 1.75em;
  }
  .failure .icon {
    background: var(--pix-color-danger);
  }
  a {
    color: var(--pix-color-primary);
  }
  a.button {
    color: var(--pix-color-primary-text);
  }
`;
