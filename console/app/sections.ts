/**
 * The console's sections as its navigation lists them, each with the least role that sees it (the server checks every
 * call as well: this only spares a user controls they may not use). `<bo-app>` lays out the first three itself
 * (payments; receivers and payment requests; balance and transfers); the others are rendered from here, one full-width
 * area each, in this order, after them. A new section: one entry below, with its element imported at the top.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AdminApi, Role } from '../api';
import { hasRole } from '../../core/backoffice';
import '../api-keys/bo-api-keys';
import '../approvals/bo-approvals';
import '../audit/bo-audit';
import '../my-account/bo-my-account';
import '../payment-link/bo-payment-link';
import '../users/bo-users';
import '../webhook-endpoints/bo-webhook-endpoints';

export interface Section {
  /** The id of its area on the page: the target of its navigation link. */
  id: string;
  /** The text of its navigation link. */
  label: string;
  /** The least role that sees the section at all. */
  least: Role;
  /** Its content, when `<bo-app>` renders it (undefined for the sections `<bo-app>` lays out itself). */
  render?: (api: AdminApi, role: Role) => TemplateResult;
}

/** Every section, in the order of the navigation. */
export const SECTIONS: readonly Section[] = [
  { id: 'payments-area', label: 'Pagamentos recebidos', least: 'viewer' },
  { id: 'receivers-area', label: 'Recebedores', least: 'viewer' },
  { id: 'cashout-area', label: 'Transferências', least: 'viewer' },
  {
    id: 'approvals-area',
    label: 'Aprovações',
    least: 'owner',
    render: (api, role) => html`<bo-approvals .api=${api} .role=${role}></bo-approvals>`,
  },
  {
    id: 'links-area',
    label: 'Links de pagamento',
    least: 'operator',
    render: (api) => html`<bo-payment-link .api=${api}></bo-payment-link>`,
  },
  { id: 'audit-area', label: 'Auditoria', least: 'viewer', render: (api) => html`<bo-audit .api=${api}></bo-audit>` },
  { id: 'users-area', label: 'Usuários', least: 'owner', render: (api, role) => html`<bo-users .api=${api} .role=${role}></bo-users>` },
  {
    id: 'api-keys-area',
    label: 'Chaves de API',
    least: 'owner',
    render: (api, role) => html`<bo-api-keys .api=${api} .role=${role}></bo-api-keys>`,
  },
  {
    id: 'webhooks-area',
    label: 'Webhooks',
    least: 'owner',
    render: (api, role) => html`<bo-webhook-endpoints .api=${api} .role=${role}></bo-webhook-endpoints>`,
  },
  { id: 'my-account-area', label: 'Minha conta', least: 'viewer', render: (api) => html`<bo-my-account .api=${api}></bo-my-account>` },
];

/** The sections `role` sees, in order. */
export const sectionsFor = (role: Role) => SECTIONS.filter((section) => hasRole(role, section.least));

/** The area of a section that carries its own content; nothing for those `<bo-app>` lays out itself. */
export const renderSection = (section: Section, api: AdminApi, role: Role) =>
  section.render ? html`<div id=${section.id} class="area" tabindex="-1">${section.render(api, role)}</div>` : nothing;
