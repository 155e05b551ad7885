/** The look every back-office element shares: cards, fields, buttons, tables, pills, focus ring, messages. */
import { css } from 'lit';

export default css`
  :host {
    display: block;
    color: var(--bo-color-text, #1c2430);
    font: inherit;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  [hidden],
  p.error:empty {
    display: none !important;
  }
  .nowrap {
    white-space: nowrap;
  }
  .card {
    background: var(--bo-color-surface, #fff);
    border: 1px solid var(--bo-color-border, #d5dbe3);
    border-radius: var(--bo-radius, 12px);
    padding: 1rem 1.25rem 1.25rem;
    box-shadow: 0 1px 2px rgb(16 24 40 / 0.05);
  }
  h2 {
    font-size: 1.15rem;
    margin: 0 0 0.75rem;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.5rem;
  }
  .head {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.5rem;
  }
  label,
  .label {
    display: block;
    font-weight: 600;
    font-size: 0.9rem;
    margin-bottom: 0.25rem;
  }
  input,
  select,
  textarea {
    font: inherit;
    width: 100%;
    padding: 0.5rem 0.6rem;
    border: 1px solid var(--bo-color-field-border, #8a94a3);
    border-radius: 8px;
    background: #fff;
    color: inherit;
  }
  input[aria-invalid='true'] {
    border-color: var(--bo-color-danger, #b42318);
  }
  .field {
    margin-bottom: 0.75rem;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0 0.75rem;
    align-items: start;
  }
  .row.end {
    align-items: end;
  }
  .row > .field {
    flex: 1 1 12rem;
    min-width: 0;
  }
  .row > .field.narrow {
    flex: 0 1 10rem;
  }
  .field p {
    margin: 0.25rem 0 0;
  }
  button {
    font: inherit;
    font-weight: 600;
    border-radius: 8px;
    padding: 0.5rem 0.9rem;
    border: 1px solid var(--bo-color-primary, #1849a9);
    background: var(--bo-color-primary, #1849a9);
    color: #fff;
    cursor: pointer;
  }
  button.secondary {
    background: #fff;
    color: var(--bo-color-primary, #1849a9);
  }
  button.danger {
    background: #fff;
    color: var(--bo-color-danger, #b42318);
    border-color: var(--bo-color-danger, #b42318);
  }
  button.small {
    padding: 0.25rem 0.6rem;
    font-size: 0.875rem;
  }
  button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  :is(button, input, select, textarea, a):focus-visible {
    outline: 3px solid var(--bo-color-focus, #f79009);
    outline-offset: 2px;
  }
  .table-wrap {
    /* Positioned, so the screen-reader-only captions stay inside the scroller instead of widening the page. */
    position: relative;
    overflow-x: auto;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.925rem;
  }
  th,
  td {
    text-align: left;
    padding: 0.45rem 0.5rem;
    border-bottom: 1px solid var(--bo-color-border, #d5dbe3);
    vertical-align: middle;
  }
  th {
    font-size: 0.8rem;
    text-transform: uppercase;
    letter-spacing: 0.03em;
    color: var(--bo-color-muted, #4b5565);
  }
  tr[aria-current='true'] td {
    background: var(--bo-color-selected, #eef4ff);
  }
  .num {
    text-align: right;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  code {
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  .muted {
    color: var(--bo-color-muted, #4b5565);
    font-size: 0.9rem;
  }
  .error {
    color: var(--bo-color-danger, #b42318);
    font-weight: 600;
  }
  .pill {
    display: inline-block;
    padding: 0.1rem 0.55rem;
    border-radius: 999px;
    font-size: 0.8rem;
    font-weight: 700;
    background: #eef2f6;
    color: #364152;
    white-space: nowrap;
  }
  .pill[data-tone='good'] {
    background: #dcfae6;
    color: #085d3a;
  }
  .pill[data-tone='bad'] {
    background: #fee4e2;
    color: #912018;
  }
  .pill[data-tone='wait'] {
    background: #fef0c7;
    color: #93370d;
  }
  .pager {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-top: 0.75rem;
  }
  /* Below 600 px a table becomes a stack of cards: one per row, each cell labelled by its column (data-label). */
  @media (max-width: 600px) {
    table,
    tbody,
    tr,
    td {
      display: block;
      width: 100%;
    }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    tr {
      border: 1px solid var(--bo-color-border, #d5dbe3);
      border-radius: 10px;
      padding: 0.35rem 0.75rem;
      margin-bottom: 0.6rem;
    }
    td {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      align-items: center;
      gap: 0.25rem 0.75rem;
      padding: 0.35rem 0;
      text-align: right;
    }
    td:last-child {
      border-bottom: none;
    }
    td.num {
      text-align: right;
    }
    td[data-label]::before {
      content: attr(data-label);
      font-weight: 600;
      font-size: 0.85rem;
      color: var(--bo-color-muted, #4b5565);
      text-align: left;
    }
    td.actions {
      justify-content: flex-start;
    }
    .table-wrap {
      overflow-x: visible;
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
