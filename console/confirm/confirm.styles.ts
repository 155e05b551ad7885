/** The look of a confirmation step (./confirm-step.ts), added to the styles of each element that has one. */
import { css } from 'lit';

export default css`
  .confirm {
    border: 2px solid var(--bo-color-primary, #1849a9);
    border-radius: 10px;
    padding: 0.75rem 1rem;
    margin: 0.75rem 0;
  }
  .confirm[data-tone='danger'] {
    border-color: var(--bo-color-danger, #b42318);
  }
  .confirm > h3,
  .confirm > h4 {
    margin: 0 0 0.5rem;
  }
  .confirm > h4 {
    font-size: 1rem;
  }
  .confirm > .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
`;
