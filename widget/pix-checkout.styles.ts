/** Tokens, layout, type, forms and buttons: what every screen uses (screens.styles.ts has the screens' own). */
import { css } from 'lit';

export default css`
  :host {
    --pix-font-family: inherit;
    --pix-font-size: 1rem;
    --pix-color-text: #1d2327;
    --pix-color-muted: #50575e;
    --pix-color-background: #ffffff;
    --pix-color-border: #8c8f94;
    --pix-color-primary: #00695c;
    --pix-color-primary-text: #ffffff;
    --pix-color-success: #1b6e2b;
    --pix-color-danger: #b3261e;
    --pix-color-notice: #8a4b00;
    --pix-focus-ring: 3px solid #1a56db;
    --pix-radius: 8px;
    --pix-spacing: 1rem;
    --pix-max-width: 40rem;
    --pix-qr-size: 14rem;
    --pix-qr-color: #000000;
    --pix-qr-background: #ffffff;

    display: block;
    max-width: var(--pix-max-width);
    font-family: var(--pix-font-family);
    font-size: var(--pix-font-size);
    line-height: 1.5;
    color: var(--pix-color-text);
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  .base {
    container: pix / inline-size;
    display: grid;
    gap: var(--pix-spacing);
    padding: var(--pix-spacing);
    background: var(--pix-color-background);
    border: 1px solid var(--pix-color-border);
    border-radius: var(--pix-radius);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  p,
  h2,
  h3,
  ol {
    margin: 0;
  }
  .title {
    font-size: 1.25em;
    font-weight: 600;
  }
  .hint,
  .description,
  .merchant,
  .method-hint {
    color: var(--pix-color-muted);
  }
  .chooser,
  .pending,
  .result {
    display: grid;
    gap: calc(var(--pix-spacing) * 0.75);
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .copy-failed {
    color: var(--pix-color-danger);
  }
  button,
  .button {
    font: inherit;
    cursor: pointer;
    display: inline-block;
    text-align: center;
    text-decoration: none;
    padding: 0.65em 1.25em;
    color: var(--pix-color-primary-text);
    background: var(--pix-color-primary);
    border: 1px solid var(--pix-color-primary);
    border-radius: var(--pix-radius);
  }
  .title[tabindex='-1']:focus:not(:focus-visible) {
    outline: none;
  }
  button.secondary {
    color: var(--pix-color-primary);
    background: transparent;
  }
  .method {
    display: grid;
    grid-template-columns: 2.25em minmax(0, 1fr);
    align-items: center;
    gap: 0.75em;
    text-align: start;
    color: var(--pix-color-text);
    background: var(--pix-color-background);
    border-color: var(--pix-color-border);
  }
  .method-mark {
    display: grid;
    place-items: center;
    color: var(--pix-color-primary);
  }
  .method-mark svg {
    width: 2em;
    height: 2em;
  }
  .method-text {
    display: grid;
    gap: 0.125em;
  }
  .method-name {
    font-weight: 600;
  }
  .legend {
    padding: 0;
    margin-bottom: calc(var(--pix-spacing) * 0.5);
  }
  /* One action above the other, each as wide as the column (a track that fills it: no justify-content of .actions). */
  .actions.stacked {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    justify-content: stretch;
    justify-items: stretch;
    width: min(100%, 22rem);
  }
  /*
   * A form's actions: on a phone one above the other, full width, the primary (last in the document) first; side by
   * side at the end of the line, primary last, once the element is wide enough.
   */
  .actions {
    display: flex;
    flex-direction: column-reverse;
    gap: calc(var(--pix-spacing) / 2);
  }
  @container pix (min-width: 34rem) {
    .actions {
      flex-direction: row;
      flex-wrap: wrap;
      justify-content: flex-end;
    }
  }
  :focus-visible {
    outline: var(--pix-focus-ring);
    outline-offset: 2px;
  }
`;
