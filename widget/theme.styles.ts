/**
 * The dark theme: it follows the system's `prefers-color-scheme` unless the page sets `theme="light"` or
 * `theme="dark"`. The tokens are the same custom properties as the light ones (pix-checkout.styles.ts), so a page that
 * sets its own wins in both themes. Every text token keeps 4.5:1 on the background and on the buttons it sits on.
 * The QR stays dark modules on white, inside a white quiet zone, so phones scan it in either theme.
 */
import { css } from 'lit';

const dark = css`
  --pix-color-text: #e8eaed;
  --pix-color-muted: #b4bbc2;
  --pix-color-background: #1e2226;
  --pix-color-border: #8c949c;
  --pix-color-primary: #5fd3bf;
  --pix-color-primary-text: #0b2421;
  --pix-color-success: #7ddc8f;
  --pix-color-danger: #ff9a8f;
  --pix-color-notice: #f5b860;
  --pix-focus-ring: 3px solid #8ab4f8;
  color-scheme: dark;
`;

/** What the dark theme changes inside: the outcome icons take the background's colour, the QR gets a white frame. */
const darkInside = (host: ReturnType<typeof css>) => css`
  ${host} .result .icon {
    color: var(--pix-color-background);
  }
  ${host} .qr {
    padding: calc(var(--pix-qr-size) / 24);
    background: var(--pix-qr-background);
    border-radius: calc(var(--pix-radius) / 2);
  }
`;

export default css`
  :host {
    color-scheme: light;
  }
  :host([theme='dark']) {
    ${dark}
  }
  ${darkInside(css`:host([theme='dark'])`)}
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
    ${darkInside(css`:host(:not([theme='light']))`)}
  }
`;
