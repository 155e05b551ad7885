/**
 * A session's device as its user is shown it: the browser and the system named in its User-Agent, kept short
 * (`Firefox 128 · Linux`), so the store keeps a label, never the whole header (which fingerprints a browser). The
 * order of the browser tests matters: Edge's and Opera's headers also name Chrome, and Chrome's also names Safari.
 */
const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
];

const SYSTEMS: readonly [name: string, pattern: RegExp][] = [
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Linux', /\bLinux\b/],
];

/** The longest label kept. */
export const MAX_DEVICE_LENGTH = 60;

/** `Browser major · System`, either part left out when not recognised; null without a User-Agent. */
export function deviceLabel(userAgent: string | undefined): string | null {
  const agent = userAgent?.trim().slice(0, 512);
  if (!agent) return null;
  const browser = BROWSERS.map(([name, pattern]) => [name, pattern.exec(agent)?.[1]] as const).find(([, major]) => major);
  const system = SYSTEMS.find(([, pattern]) => pattern.test(agent))?.[0];
  const parts = [browser ? `${browser[0]} ${browser[1]}` : undefined, system].filter((part) => part !== undefined);
  return (parts.length > 0 ? parts.join(' · ') : 'Outro navegador').slice(0, MAX_DEVICE_LENGTH);
}
