/**
 * The console rows (../console-rows.ts) of issue 27's "nothing stalls": the shopper's status p50 while the
 * heaviest list and the whole export run, beside the status alone (./console-status.ts), and a restart's first
 * answer with a schema step pending, beside a restart with nothing pending (./console-restart.ts).
 */
import { ms, type Row } from '../rows';
import type { RestartFigures } from './console-restart';
import type { StatusFigures } from './console-status';

export interface StallFigures {
  size: number;
  status?: (StatusFigures & { list: string }) | undefined;
  restart?: RestartFigures | undefined;
}

/** The rows of the largest history of one database (`where` names it, `slug` goes into the ids). */
export function stallRows(largest: StallFigures, where: string, slug: string): Row[] {
  const rows: Row[] = [];
  const n = largest.size.toLocaleString('en');
  if (largest.restart) {
    const r = largest.restart;
    rows.push({
      id: `console-restart-${slug}`,
      what:
        `Restart with a pending data migration (step 14, the list's indexes) over ${n} checkouts, ${where}: ` +
        `process start → first answered status (indexes built online, recorded ${r.builtAfter.toFixed(1)} s after the start)`,
      value: r.stepPending,
      unit: 'ms',
      better: 'lower',
      baseline: `nothing pending ${ms(r.nothingPending)}`,
      baselineValue: r.nothingPending,
      goal: 'answers within 1 s of the restart with nothing pending',
      met: r.stepPending <= r.nothingPending + 1_000,
    });
  }
  if (largest.status) {
    const st = largest.status;
    const statusRow = (id: string, what: string, value: number): Row => ({
      id,
      what,
      value,
      unit: 'ms',
      better: 'lower',
      baseline: `status alone ${ms(st.idle)}`,
      baselineValue: st.idle,
      goal: '≤ 2× alone',
      met: value <= 2 * st.idle,
    });
    rows.push(
      statusRow(
        `console-status-list-${slug}`,
        `Shopper's status (GET /api/checkouts/:id, own process, socket) p50, ${where}, ${n} checkouts, while the heaviest console list (${st.list}) runs`,
        st.duringList,
      ),
      statusRow(`console-status-export-${slug}`, `Same status p50 while the CSV export of all ${n} checkouts streams`, st.duringExport),
    );
  }
  return rows;
}
