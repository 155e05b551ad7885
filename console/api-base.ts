/**
 * The console's wire underneath `AdminApi` (./api.ts): one JSON call to `/api/admin`, with the session cookie, that
 * tells the page when the session is gone, and the session itself (sign in, its second step, who is signed in, the
 * step-up, sign out). A call refused with `step_up_required` asks `stepUp` (the page's dialog) and, once the factor is
 * proven again, is sent once more as it was, its `Idempotency-Key` too: the refusal came before anything was done.
 */
import type { MfaMethod, SecondStepRequired, Session, SignedIn } from '../core/backoffice';
import { AdminApiError, errorFrom, MESSAGES } from './api-errors';

/** A query string of the values given (empty ones left out), with its `?`; '' when none. */
export const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** WebAuthn options as the BFF's `@simplewebauthn/server` made them, for `@simplewebauthn/browser`. */
export type PasskeyOptions = Record<string, unknown>;

export class AdminApiBase {
  /**
   * Counts sign-ins and sign-outs: a call refused for want of a session tells the page only if no sign-in or sign-out
   * came between its start and its answer (a late 401 of the previous session must not end the new one).
   */
  protected generation = 0;

  /** Asked when a call needs the second factor again: resolves true once it was proven (false: the user gave up). */
  stepUp?: (methods: readonly MfaMethod[]) => Promise<boolean>;

  /** @param onUnauthorized - Called when a call is refused for want of a session (it expired, or was ended elsewhere). */
  constructor(private readonly onUnauthorized: () => void = () => {}) {}

  /** One JSON call to `/api/admin<path>`, with the session cookie (same-origin); throws an AdminApiError. */
  private async send<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`/api/admin${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new AdminApiError(0, 'network_error', MESSAGES.network_error);
    }
    const data: unknown = await response.json().catch(() => null);
    if (response.ok) return data as T;
    throw errorFrom(response.status, data, response.headers.get('retry-after'));
  }

  /** `send`, and the page hears when the session is gone. */
  protected async call<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const generation = this.generation;
    try {
      return await this.send<T>(method, path, body, extra).catch(async (error: unknown) => {
        if (!(await this.steppedUp(error))) throw error;
        return this.send<T>(method, path, body, extra);
      });
    } catch (error) {
      if ((error as AdminApiError).code === 'admin_unauthorized') this.unauthorized(generation);
      throw error;
    }
  }

  /** Whether `error` asked for the step-up and the user has just given it. */
  private async steppedUp(error: unknown): Promise<boolean> {
    if (!(error instanceof AdminApiError) || error.code !== 'step_up_required' || !this.stepUp) return false;
    const methods = Array.isArray(error.details?.methods) ? (error.details.methods as MfaMethod[]) : [];
    return this.stepUp(methods);
  }

  /** Tells the page the session is gone, unless a sign-in or sign-out came since the call started at `generation`. */
  protected unauthorized(generation: number): void {
    if (generation === this.generation) this.onUnauthorized();
  }

  /** Who is signed in; undefined when nobody is (no cookie, or it expired). */
  async session(): Promise<Session | undefined> {
    try {
      return await this.send<Session>('GET', '/session');
    } catch (error) {
      if ((error as AdminApiError).code === 'admin_unauthorized') return undefined;
      throw error;
    }
  }

  /** Signs in; the BFF sets the session cookie. Refusals: `invalid_credentials`, `sign_in_rate_limited` (with `retryAfter`). */
  async signIn(email: string, password: string): Promise<Session | SecondStepRequired> {
    const answer = await this.send<SignedIn | SecondStepRequired>('POST', '/session', { email, password });
    if ('mfaRequired' in answer) return answer;
    this.generation++;
    return { actor: { kind: 'user', name: answer.user.email, role: answer.user.role }, expiresAt: answer.expiresAt };
  }

  /** The sign-in's second step: a TOTP or a recovery code after the password. */
  async signInWithCode(code: string): Promise<Session> {
    const { user, expiresAt } = await this.send<SignedIn>('POST', '/session/mfa', { code });
    this.generation++;
    return { actor: { kind: 'user', name: user.email, role: user.role }, expiresAt };
  }

  /** The sign-in's second step with a passkey: the browser's assertion to the challenge of `passkeySignInOptions`. */
  async signInWithPasskey(response: unknown): Promise<Session> {
    const { user, expiresAt } = await this.send<SignedIn>('POST', '/session/passkey', { response });
    this.generation++;
    return { actor: { kind: 'user', name: user.email, role: user.role }, expiresAt };
  }

  /** The WebAuthn options (challenge included) of the sign-in's second step. */
  passkeySignInOptions = () => this.send<PasskeyOptions>('POST', '/session/passkey/options', {});

  /** Proves the second factor again for this session: a code (`{ code }`) or a passkey assertion (`{ response }`). */
  proveAgain = (proof: { code: string } | { response: unknown }) => this.call<unknown>('POST', '/session/step-up', proof);

  /** The WebAuthn options of the step-up. */
  stepUpOptions = () => this.call<PasskeyOptions>('POST', '/session/step-up/options', {});

  /** Ends the session on the server (the cookie is cleared); an already ended one is no error. */
  async signOut(): Promise<void> {
    this.generation++;
    await this.send<unknown>('DELETE', '/session').catch((error: AdminApiError) => {
      if (error.code !== 'admin_unauthorized') throw error;
    });
  }

  /** Which provider the product talks to, as `/healthz` says: `sandbox` (a test environment) or `remote`. */
  async environment(): Promise<'sandbox' | 'remote' | undefined> {
    try {
      const response = await fetch('/healthz', { headers: { accept: 'application/json' } });
      return ((await response.json()) as { provider?: 'sandbox' | 'remote' }).provider;
    } catch {
      return undefined;
    }
  }
}
