/** Copies the PIX code, reporting success only once the text really reached the clipboard. */

/**
 * Async Clipboard API first; without it (old or non-secure contexts) or when it refuses, selects the text in `field`
 * and tries `document.execCommand('copy')`. On failure the text stays selected so the payer can copy it by hand.
 */
export async function copyText(text: string, field: HTMLTextAreaElement | null): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (clipboard?.writeText) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Permission denied or document not focused: fall through to the selection path.
    }
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
