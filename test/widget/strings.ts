/** Every language's strings at once, for tests: the element loads English and Spanish on demand (widget/i18n.ts). */
import type { Locale, Strings } from '../../widget/i18n.js';
import { en } from '../../widget/i18n/en.js';
import { es } from '../../widget/i18n/es.js';
import { ptBR } from '../../widget/i18n/pt-br.js';
import { ptBRScreens } from '../../widget/i18n/pt-br-screens.js';

// Portuguese whole: the entry's strings and those of the lazy screens' chunk.
const ALL: Record<Locale, Strings> = { 'pt-BR': { ...ptBR, ...ptBRScreens }, en, es };

export const stringsOf = (locale: Locale): Strings => ALL[locale];
