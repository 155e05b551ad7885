import { css } from 'lit';

export default css`
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.3rem 0.9rem;
    margin: 0 0 0.5rem;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ol.timeline {
    list-style: none;
    margin: 0;
    padding: 0 0 0 1rem;
    border-left: 3px solid var(--bo-color-border, #d5dbe3);
  }
  ol.timeline li {
    margin: 0 0 0.6rem;
  }
  pre {
    max-height: 20rem;
    overflow: auto;
    font-size: 0.8rem;
    background: #f5f7fa;
    padding: 0.5rem;
    border-radius: 6px;
  }
  .head button {
    flex: none;
  }
`;
