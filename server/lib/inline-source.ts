/**
 * A script or stylesheet written into a page, allowed by the page's Content-Security-Policy through its hash (CSP
 * Level 2 `'sha256-…'`) rather than `'unsafe-inline'`: the policy allows exactly that text and nothing an attacker
 * could inject beside it. Computed once, when the text is read, not per page served.
 */
import { createHash } from 'node:crypto';

export interface InlineSource {
  /** The text between the tags, exactly as hashed. */
  text: string;
  /** The policy's source expression for it, quotes included: `'sha256-<base64>'`. */
  hash: string;
}

export function inlineSource(text: string): InlineSource {
  // A `</script>` or `</style>` inside would end the element early: its text would no longer be what was hashed.
  if (/<\/(script|style)/i.test(text)) throw new Error('An inline script or style may not contain its closing tag.');
  return { text, hash: `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'` };
}
