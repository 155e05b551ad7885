/** The look of the webhook endpoints' section: row actions, the event types' checkboxes (the confirmation's is ../confirm's). */
import { css } from 'lit';

export default css`
  div.actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.35rem;
  }
  fieldset {
    border: 1px solid var(--bo-color-border, #d5dbe3);
    border-radius: 8px;
    margin: 0 0 0.75rem;
  }
  legend {
    font-weight: 600;
    font-size: 0.9rem;
  }
  .checks {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr));
    gap: 0.35rem 1rem;
  }
  label.check {
    display: flex;
    gap: 0.5rem;
    align-items: start;
    font-weight: 400;
  }
  label.check input {
    width: auto;
    margin-top: 0.2rem;
  }
  .url {
    overflow-wrap: anywhere;
  }
`;
