/**
 * The element's language as a Lit reactive controller: Portuguese is always there; another language's strings come in
 * their own chunk (widget/i18n.ts), and nothing is drawn until they do, so no screen flashes in Portuguese first.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { warmDateFormats } from './date-format.js';
import { loadStrings, stringsFor, toLocale, type Locale, type Strings } from './i18n.js';

export class Language implements ReactiveController {
  /** The language whose chunk is on its way. */
  private waitingFor: Locale | undefined;
  /** The last language asked for: one that could not be had is asked again only when the element's language changes. */
  private asked: Locale | undefined;
  private warmed: Locale | undefined;

  constructor(private readonly host: ReactiveControllerHost & { lang: string }) {
    host.addController(this);
  }

  hostUpdate(): void {
    // Asked for in the same update as the checkout's first request (willUpdate), so the two travel together.
    this.ask();
  }

  hostUpdated(): void {
    // After the first render, while the element waits for its first answer.
    if (this.warmed === this.locale) return;
    this.warmed = this.locale;
    warmDateFormats(this.locale);
  }

  get locale(): Locale {
    return toLocale(this.host.lang);
  }

  /** True while the language's chunk is on its way. */
  get waiting(): boolean {
    return this.waitingFor === this.locale;
  }

  /** The strings of the element's language; Portuguese until its chunk comes, or if it cannot be had. */
  get strings(): Strings {
    return stringsFor(this.locale) ?? stringsFor('pt-BR')!;
  }

  private ask(): void {
    const locale = this.locale;
    if (this.asked === locale) return;
    this.asked = locale;
    if (stringsFor(locale)) return;
    this.waitingFor = locale;
    void loadStrings(locale).then(() => {
      if (this.waitingFor !== locale) return;
      this.waitingFor = undefined;
      this.host.requestUpdate();
    });
  }
}
