import { css } from 'lit';

export default css`
  :host {
    max-width: 80rem;
    margin: 0 auto;
    padding: 0 1rem 3rem;
  }
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem 1rem;
    padding: 1rem 0;
    border-bottom: 1px solid var(--bo-color-border, #d5dbe3);
    margin-bottom: 1rem;
  }
  .brand {
    flex: 1 1 16rem;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0;
  }
  .brand p {
    margin: 0.15rem 0 0;
  }
  .env {
    margin: 0;
    padding: 0.2rem 0.7rem;
    border-radius: 999px;
    background: #fef0c7;
    color: #93370d;
    font-weight: 700;
    font-size: 0.85rem;
  }
  .who {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.5rem;
    margin: 0;
  }
  .who .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .who .role {
    padding: 0.1rem 0.6rem;
    border-radius: 999px;
    background: var(--bo-color-selected, #eef4ff);
    color: var(--bo-color-primary, #1849a9);
    font-size: 0.85rem;
    font-weight: 700;
  }
  .notice {
    margin: 0 0 1rem;
    padding: 0.6rem 0.9rem;
    border-radius: 8px;
    border-left: 4px solid var(--bo-color-primary, #1849a9);
    background: #eef4ff;
  }
  .notice[data-tone='success'] {
    border-color: #079455;
    background: #ecfdf3;
  }
  .notice[data-tone='error'] {
    border-color: var(--bo-color-danger, #b42318);
    background: #fef3f2;
  }
  .sections {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    margin: 0 0 1rem;
  }
  .sections a {
    color: var(--bo-color-primary, #1849a9);
    font-weight: 600;
  }
  .live {
    margin-left: auto;
    font-size: 0.85rem;
    color: var(--bo-color-muted, #4b5565);
  }
  .live[data-state='on']::before {
    content: '● ';
    color: #079455;
  }
  .area {
    scroll-margin-top: 1rem;
  }
  .stack {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
  }
  main > .area {
    margin-top: 1rem;
  }
  a:focus-visible,
  button:focus-visible {
    outline: 3px solid var(--bo-color-focus, #f79009);
    outline-offset: 2px;
  }
  .wide {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
    margin-bottom: 1rem;
  }
  .desk {
    display: grid;
    gap: 1rem;
    grid-template-columns: minmax(0, 1fr);
  }
  .main,
  .side {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
    align-content: start;
    min-width: 0;
  }
  @media (min-width: 64rem) {
    .desk {
      grid-template-columns: minmax(0, 1.75fr) minmax(20rem, 1fr);
    }
  }
`;
