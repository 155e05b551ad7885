/**
 * Remembers which checkout belongs to which order for this tab, so a reload or the return from the bank page
 * resumes the same checkout instead of starting another.
 */

const PREFIX = 'pix-checkout:';

function key(endpoint: string, orderId: string): string {
  return `${PREFIX}${endpoint}|${orderId}`;
}

// sessionStorage throws in some sandboxed iframes and privacy modes: the element then simply does not resume.
function store(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function rememberedCheckout(endpoint: string, orderId: string): string | undefined {
  try {
    return store()?.getItem(key(endpoint, orderId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberCheckout(endpoint: string, orderId: string, checkoutId: string): void {
  try {
    store()?.setItem(key(endpoint, orderId), checkoutId);
  } catch {
    // Quota or access errors only cost the resume.
  }
}

export function forgetCheckout(endpoint: string, orderId: string): void {
  try {
    store()?.removeItem(key(endpoint, orderId));
  } catch {
    // Nothing to clean then.
  }
}
