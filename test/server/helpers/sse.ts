/** Reads a server-sent event stream over a real socket, frame by frame. */

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The next event or `retry:` hint (comments are collected apart); rejects after `timeoutMs`. Undefined when the server ended the stream. */
  next(timeoutMs?: number): Promise<SseEvent | undefined>;
  /** Comments (`: heartbeat`) seen so far. */
  comments: string[];
  /** Keeps reading for `ms` (collecting events and comments) without failing. */
  readFor(ms: number): Promise<void>;
  /** Resolves when the server has closed the stream. */
  ended(timeoutMs?: number): Promise<boolean>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const queue: SseEvent[] = [];
  const comments: string[] = [];

  const pull = async () => {
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return;
    }
    buffer += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { data: '' };
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line.startsWith('retry: ')) event.retry = Number(line.slice(7));
        else if (line.startsWith('id: ')) ((event.id = line.slice(4)), (isEvent = true));
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) ((event.data += line.slice(6)), (isEvent = true));
      }
      if (isEvent || event.retry !== undefined) queue.push(event);
    }
  };

  const within = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timeout waiting for ${what}`)), ms))]);

  return {
    status: response.status,
    headers: response.headers,
    comments,
    async next(timeoutMs = 5_000) {
      const started = Date.now();
      for (;;) {
        const event = queue.shift();
        if (event) return event;
        if (done) return undefined;
        await within(pull(), timeoutMs - (Date.now() - started), 'an SSE event');
      }
    },
    async readFor(ms) {
      const until = Date.now() + ms;
      while (!done && Date.now() < until) await within(pull(), until - Date.now(), 'data').catch(() => undefined);
    },
    async ended(timeoutMs = 5_000) {
      const started = Date.now();
      while (!done) await within(pull(), timeoutMs - (Date.now() - started), 'the end of the stream');
      return true;
    },
    close() {
      abort.abort();
    },
  };
}
