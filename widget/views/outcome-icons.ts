/**
 * The pictures of the outcome screens (icons.ts has the rest), in the lazy chunk with those screens (views/screens.ts):
 * drawn with the entry's `icon` and Lit's `svg`, handed over in the kit.
 */
import type { TemplateResult } from 'lit';
import type { FinalCheckoutState } from '../../core/states.js';
import type { Kit } from './kit.js';

export function outcomeIcons({ icon, svg, checkIcon }: Pick<Kit, 'icon' | 'svg' | 'checkIcon'>) {
  const crossIcon = (): TemplateResult => icon('cross', svg`<path d="m6.5 6.5 11 11M17.5 6.5l-11 11"></path>`);
  const banIcon = (): TemplateResult => icon('ban', svg`<circle cx="12" cy="12" r="8.5"></circle><path d="m6 18 12-12"></path>`);
  const undoIcon = (): TemplateResult =>
    icon('undo', svg`<path d="M9 14 4 9l5-5"></path><path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11"></path>`);
  const clockIcon = (): TemplateResult => icon('clock', svg`<circle cx="12" cy="12" r="8.5"></circle><path d="M12 7v5l3.5 2"></path>`);
  /** One picture per outcome, so Error, Cancelled and Reversed do not look alike. */
  const OUTCOME_ICON: Record<FinalCheckoutState, () => TemplateResult> = {
    Completed: checkIcon,
    Error: crossIcon,
    Cancelled: banIcon,
    Reversed: undoIcon,
  };
  return { OUTCOME_ICON, clockIcon };
}
