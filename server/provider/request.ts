/**
 * The wire: base URL, bearer token, timeouts, retries with backoff and jitter (only for calls safe to repeat),
 * response validation and error mapping. Nothing else in the project calls `fetch` on the provider.
 */
import { z } from 'zod';
import { sendVia, type HttpAnswer, type HttpSend } from '../lib/http-client';
import { ProviderConfigError, ProviderError, ProviderNetworkError } from './errors';
import { errorEnvelope } from './schemas';
import { TokenCache } from './token';

export interface RequestOptions<T extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Schema of the response body (of `data` when `envelope` is true). */
  schema: T;
  /** Whether the answer is `{ statusCode: "Done", data }` (default) or the bare body. */
  envelope?: boolean;
  /** True when repeating the call cannot do anything twice: reads, and writes the provider dedupes. */
  safeToRetry?: boolean;
  /** Send without a token (login). */
  anonymous?: boolean;
  /** Read the body as text instead of JSON (login answers with a bare token). */
  text?: boolean;
}

export interface RequesterOptions {
  /** The provider's address including `/v1`, for example `https://api.example.com/v1`. */
  baseUrl: string;
  accessKey: string;
  secret: string;
  /** Stands in for the default transport (Node's `http`/`https` with keep-alive); uploads always use it when given. */
  fetch?: typeof fetch;
  /** Per attempt. Default 15 s. */
  timeoutMs?: number;
  /** Extra attempts for calls safe to repeat. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry. Default 300 ms. */
  retryBaseMs?: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export class Requester {
  readonly tokens: TokenCache;
  readonly #fetch: typeof fetch;
  readonly #send: HttpSend;
  readonly #base: string;

  constructor(private readonly options: RequesterOptions) {
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#send = sendVia(options.fetch);
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.tokens = new TokenCache(() => this.#login());
  }

  async request<T extends z.ZodType>(options: RequestOptions<T>): Promise<z.output<T>> {
    if (options.anonymous) return this.#withRetries(options, undefined);
    const token = await this.tokens.get();
    try {
      return await this.#withRetries(options, token);
    } catch (error) {
      // An expired or revoked token: the call was refused before doing anything, so one fresh try is safe.
      if (!(error instanceof ProviderError) || error.reason !== 'AuthenticationTokenInvalid') throw error;
      this.tokens.invalidate(token);
      return this.#withRetries(options, await this.tokens.get());
    }
  }

  /**
   * Sends a file to a pre-signed upload address (no bearer token: the address is the credential). Not retried:
   * the address accepts one upload, and a stream cannot be replayed.
   */
  async upload(address: string, body: BodyInit, headers: Record<string, string>): Promise<unknown> {
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(address, {
        method: 'PUT',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs * 4),
        // Node's fetch needs this to send a stream body.
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new ProviderNetworkError(`PUT upload: ${(error as Error).message}`, timedOut, error);
    }
    const parsed = parseBody(text, false);
    if (!response.ok) throw toProviderError(response.status, parsed, 'PUT upload');
    return parsed;
  }

  #login(): Promise<string> {
    const { accessKey, secret } = this.options;
    return this.request({
      method: 'POST',
      path: '/partners-int/login',
      body: { accessKey, secret },
      schema: tokenText,
      anonymous: true,
      text: true,
      safeToRetry: true,
    });
  }

  async #withRetries<T extends z.ZodType>(options: RequestOptions<T>, token: string | undefined) {
    const maxRetries = options.safeToRetry ? (this.options.maxRetries ?? 2) : 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(options, token);
      } catch (error) {
        if (attempt >= maxRetries || !isTransient(error)) throw error;
        await sleep(backoff(attempt, this.options.retryBaseMs ?? 300));
      }
    }
  }

  async #once<T extends z.ZodType>(options: RequestOptions<T>, token: string | undefined): Promise<z.output<T>> {
    const url = new URL(this.#base + options.path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';

    const timeoutMs = this.options.timeoutMs ?? 15_000;
    let response: HttpAnswer;
    try {
      response = await this.#send({
        method: options.method,
        url,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        timeoutMs,
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      const what = `${options.method} ${options.path}`;
      throw new ProviderNetworkError(
        timedOut ? `${what}: no answer within ${timeoutMs} ms` : `${what}: ${(error as Error).message}`,
        timedOut,
        error,
      );
    }

    const ok = response.status >= 200 && response.status < 300;
    const body = parseBody(response.text, options.text && ok);
    if (!ok) throw toProviderError(response.status, body, `${options.method} ${options.path}`);

    const payload = options.text || options.envelope === false ? body : (body as { data?: unknown } | undefined)?.data;
    const parsed = options.schema.safeParse(payload);
    if (!parsed.success) {
      throw new ProviderError({
        status: response.status,
        errorName: 'InvalidResponse',
        message: `${options.method} ${options.path}: unexpected response shape (${parsed.error.issues[0]?.message ?? 'invalid'})`,
        raw: body,
      });
    }
    return parsed.data;
  }
}

/**
 * The login answer: the contract says a bare token. A JSON string (`"eyJ…"`) or an envelope holding one
 * (`{ statusCode: "Done", data: "eyJ…" }`) is read the same way.
 */
const tokenText = z
  .string()
  .trim()
  .transform((text) => {
    if (!/^["{]/.test(text)) return text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') return parsed.trim();
      const data = (parsed as { data?: unknown } | null)?.data;
      return typeof data === 'string' ? data.trim() : text;
    } catch {
      return text;
    }
  })
  .pipe(z.string().min(1));

function parseBody(text: string, asText: boolean | undefined): unknown {
  if (asText) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Maps any non-2xx answer to the error hierarchy, keeping the provider's own name, code and details. */
export function toProviderError(status: number, body: unknown, what: string): ProviderError {
  const envelope = errorEnvelope.safeParse(body);
  if (!envelope.success) {
    return new ProviderError({ status, message: `${what}: HTTP ${status}`, raw: body });
  }
  const { name, message, code, details } = envelope.data.error;
  const init = { status, errorName: name, code, details, message, raw: body };
  const reason = details && !Array.isArray(details) ? details.reason : undefined;
  if (status === 401 && reason === 'AccessKeyUnauthorized') {
    return new ProviderConfigError({
      ...init,
      message: `The provider refused the access key (${message}). Check PROVIDER_ACCESS_KEY and PROVIDER_SECRET.`,
    });
  }
  return new ProviderError(init);
}

function isTransient(error: unknown): boolean {
  if (error instanceof ProviderNetworkError) return true;
  return error instanceof ProviderError && RETRYABLE_STATUS.has(error.status);
}

/** Exponential backoff with jitter: a random delay between half and all of `base * 2^attempt`. */
function backoff(attempt: number, baseMs: number): number {
  const ceiling = baseMs * 2 ** attempt;
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
