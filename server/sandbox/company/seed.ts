/**
 * Starter receivers, so a fresh sandbox can pay someone at once: two approved companies with accounts, one waiting
 * for review and one rejected. Fixed ids keep the demo and the docs stable; written once, on the first start.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../lib/clock';
import type { CompanyStore } from './store';

export const SEED_RECEIVERS = [
  {
    id: 'c0a000000000000000000001',
    companyFantasyName: 'Papelaria Central',
    companyCNPJ: '11222333000181',
    receiverStatus: 'Approved',
    reviewNote: 'Documentação conferida',
  },
  {
    id: 'c0a000000000000000000002',
    companyFantasyName: 'Transportes Rápido Sul',
    companyCNPJ: '44555666000181',
    receiverStatus: 'Approved',
    reviewNote: null,
  },
  {
    id: 'c0a000000000000000000003',
    companyFantasyName: 'Gráfica Aurora',
    companyCNPJ: '77888999000181',
    receiverStatus: 'Pending',
    reviewNote: null,
  },
  {
    id: 'c0a000000000000000000004',
    companyFantasyName: 'Consultoria Horizonte',
    companyCNPJ: '12345678000195',
    receiverStatus: 'Rejected',
    reviewNote: 'Contrato social ilegível',
  },
] as const;

export const SEED_ACCOUNTS = [
  {
    id: 'acc000000000000000000001',
    receiverId: 'c0a000000000000000000001',
    bankCode: '001',
    bankName: 'Banco do Brasil',
    accountAgency: '1234',
    accountNumber: '56789-0',
  },
  {
    id: 'acc000000000000000000002',
    receiverId: 'c0a000000000000000000001',
    bankCode: '341',
    bankName: 'Itaú Unibanco',
    accountAgency: '0987',
    accountNumber: '12345-6',
  },
  {
    id: 'acc000000000000000000003',
    receiverId: 'c0a000000000000000000002',
    bankCode: '237',
    bankName: 'Bradesco',
    accountAgency: '2468',
    accountNumber: '13579-2',
  },
  {
    id: 'acc000000000000000000004',
    receiverId: 'c0a000000000000000000003',
    bankCode: '104',
    bankName: 'Caixa Econômica Federal',
    accountAgency: '0001',
    accountNumber: '100200-3',
  },
] as const;

const MARK = 'company-seeded';

/** Seeds an empty database once; the mark in `settings` keeps a restart (or a later cleanup) from seeding again. */
export function seedCompanyPayments(db: Database.Database, company: CompanyStore, clock: Clock): void {
  company.atomically(() => {
    if (db.prepare('SELECT 1 FROM settings WHERE key = ?').get(MARK)) return;
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(MARK, clock.now().toISOString());
    if (company.receivers(null, 1, 0).total > 0) return;
    const at = clock.now().toISOString();
    for (const r of SEED_RECEIVERS) company.insertReceiver({ ...r, creationDate: at });
    for (const a of SEED_ACCOUNTS) {
      const cnpj = SEED_RECEIVERS.find((r) => r.id === a.receiverId)!.companyCNPJ;
      company.insertAccount({ ...a, createdAt: at, accountOwnerDocNumber: cnpj, pixKey: cnpj, pixKeyType: 'CNPJ' });
    }
  });
}
