/** Copies the PIX code, reporting success only once the text really reached the clipboard. */

/**
 * Async Clipboard API first; without it (old or non-secure contexts) or when it refuses, copies through a hidden
 * text area in `root` and `document.execCommand('copy')`. Focus goes back where it was.
 */
export async function copyText(text: string, root: ShadowRoot): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (clipboard?.writeText) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Permission denied or document not focused: fall through to the selection path.
    }
  }
  const focused = root.activeElement as HTMLElement | null;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  area.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;';
  root.append(area);
  area.focus({ preventScroll: true });
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    focused?.focus({ preventScroll: true });
  }
}

/** Selects all text of `node`, so a payer whose copy failed can copy it by hand. */
export function selectText(node: Node): void {
  const selection = (node.getRootNode() as ShadowRoot & { getSelection?: () => Selection | null }).getSelection?.() ?? getSelection();
  selection?.selectAllChildren(node);
}
