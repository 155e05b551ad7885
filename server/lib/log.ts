/**
 * The server's log (pino): one JSON object a line on stdout, or pino-pretty's lines for people (`LOG_FORMAT=pretty`).
 * Every line has `time` (ISO 8601), `level` (its name), `msg`, and inside a request its `reqId` and the payment ids
 * the request annotated (./request-scope.ts); a background job's line (a reconciler pass, the merchant webhooks) its
 * `job`, and any other line `job: process`.
 *
 * Console-shaped (`log`, `warn`, `error`), as every part of the server takes its logger (tests pass a quiet one): a
 * first argument that is a plain object gives the line its fields, pino's convention; an Error is written as `err`
 * (type, message, stack); anything else joins the message. What must never be kept (a CPF, a token, a secret, a
 * cookie, a key, a body) is never handed to it, and `redact` censors such fields should one be passed by mistake.
 */
import { pino, stdTimeFunctions, type DestinationStream, type Level, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';
import { inspect } from 'node:util';
import { currentRequest } from './request-scope';

export type LogFormat = 'json' | 'pretty';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Field names whose values a line never shows, wherever they sit (top level, or one or two levels down). */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'token',
  'orderToken',
  'secret',
  'secrets',
  'accessKey',
  'apiKey',
  'key',
  'cpf',
  'taxNumber',
  'payerCpf',
  'body',
  'payload',
];
const REDACT_PATHS = SECRET_FIELDS.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const step = key.startsWith('[') ? key : `.${key}`;
  return [key, `*${step}`, `*.*${step}`];
});

export interface LogOptions {
  format?: LogFormat;
  level?: LogLevel;
  /** Where lines go; stdout unless told (tests capture them). */
  destination?: DestinationStream;
}

/** The console-shaped logger the server's parts take. */
export type ServerLog = Pick<Console, 'log' | 'warn' | 'error'>;

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !(value instanceof Error) && Object.getPrototypeOf(value) === Object.prototype;

/** A console call's arguments as pino's: the fields (an Error as `err`) and one message. */
function toLine(args: readonly unknown[]): [Record<string, unknown>, string] {
  const fields: Record<string, unknown> = {};
  const words: string[] = [];
  args.forEach((arg, index) => {
    if (index === 0 && isFields(arg)) Object.assign(fields, arg);
    else if (arg instanceof Error && !fields.err) fields.err = arg;
    else words.push(typeof arg === 'string' ? arg : inspect(arg, { depth: 2, breakLength: Infinity }));
  });
  // `logger.warn('merchant webhooks:', error)`: the colon introduced the error, now in `err`.
  return [fields, words.join(' ').replace(/:$/, '')];
}

/** The pino logger behind `createLog`, for what needs it whole. */
export function createPino({ format = 'json', level = 'info', destination }: LogOptions = {}): Pino {
  const options = {
    level,
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // The request's id and payment ids, read when the line is written: those a request learnt after it began too. A
    // line no request nor background job told (the start, the stop, a store's lost connection) is the process's own.
    mixin: () => ({ ...(currentRequest() ?? { job: 'process' }) }),
    ...(format === 'json' && { formatters: { level: (label: string) => ({ level: label }) } }),
  };
  if (format === 'pretty') return pino(options, destination ?? pretty({ colorize: process.stdout.isTTY, sync: true }));
  return destination ? pino(options, destination) : pino(options);
}

/** The server's log, console-shaped: `log` is `info`, `warn` and `error` their levels. */
export function createLog(options: LogOptions = {}): ServerLog & { pino: Pino } {
  const logger = createPino(options);
  const at =
    (level: Level) =>
    (...args: unknown[]) => {
      if (!logger.isLevelEnabled(level)) return;
      const [fields, msg] = toLine(args);
      logger[level](fields, msg);
    };
  return { log: at('info'), warn: at('warn'), error: at('error'), pino: logger };
}
