/**
 * The provider's error envelope and the one exception type every route throws. The root app's `onError` turns an
 * `EmulatorError` into `{ statusCode: "Error", error: { name, message, code, details } }` with its status.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ErrorEnvelope, ValidationDetail } from '../provider/schemas';

type ErrorBody = ErrorEnvelope['error'];

export class EmulatorError extends Error {
  readonly status: ContentfulStatusCode;
  readonly body: ErrorBody;
  constructor(status: ContentfulStatusCode, body: ErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
  envelope(): ErrorEnvelope {
    return { statusCode: 'Error', error: this.body };
  }
}

export const invalidRequest = (details: ValidationDetail[], message = 'The request is not valid') =>
  new EmulatorError(400, { name: 'InvalidRequestFormatError', message, code: 'InvalidRequestFormatError', details });

/** 409 of the counterparty and business checks; `reason` is what integrators branch on. */
export const operationError = (reason: string, message: string, extra: Record<string, unknown> = {}) =>
  new EmulatorError(409, { name: 'OperationError', message, code: 'OperationError', details: { reason, ...extra } });

export const tokenInvalid = () =>
  new EmulatorError(401, {
    name: 'AuthenticationError',
    message: 'The access token is missing, invalid or expired',
    code: 'AuthenticationError',
    details: { reason: 'AuthenticationTokenInvalid' },
  });

export const notFound = (message = 'Resource not found') =>
  new EmulatorError(404, { name: 'NotFoundError', message, code: 'NotFound', details: { reason: 'NotFound' } });

/** JSON pointer (RFC 6901) of a path of keys. */
export const pointer = (path: readonly PropertyKey[]) =>
  path.map((key) => '/' + String(key).replaceAll('~', '~0').replaceAll('/', '~1')).join('');

function valueAt(input: unknown, path: readonly PropertyKey[]): { parent: unknown; value: unknown } {
  let parent: unknown = undefined;
  let value: unknown = input;
  for (const key of path) {
    parent = value;
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return { parent, value };
}

/**
 * Maps zod issues to the provider's detail items. Like the provider's validator, a missing property is reported on
 * the object that should hold it (`required`, path of the object), every other problem on the value itself.
 */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], input: unknown): ValidationDetail[] {
  return issues.map((issue) => {
    const { parent, value } = valueAt(input, issue.path);
    const key = issue.path.at(-1);
    if (key !== undefined && value === undefined && parent !== null && typeof parent === 'object') {
      const name = String(key);
      return {
        path: pointer(issue.path.slice(0, -1)),
        code: 'required',
        message: `must have required property '${name}'`,
        info: { missingProperty: name },
      };
    }
    const path = pointer(issue.path);
    switch (issue.code) {
      case 'invalid_value':
        return { path, code: 'enum', message: 'must be equal to one of the allowed values', info: { allowedValues: issue.values } };
      case 'invalid_union': {
        // A union of literals (page sizes) is an enumeration for the integrator.
        const allowed = issue.errors.flat().flatMap((sub) => (sub.code === 'invalid_value' ? sub.values : []));
        if (allowed.length > 0)
          return { path, code: 'enum', message: 'must be equal to one of the allowed values', info: { allowedValues: allowed } };
        return { path, code: 'type', message: issue.message, info: {} };
      }
      case 'invalid_type':
        return { path, code: 'type', message: `must be ${issue.expected}`, info: { type: issue.expected } };
      case 'invalid_format':
        return issue.format === 'regex'
          ? { path, code: 'pattern', message: issue.message, info: { pattern: issue.pattern ?? '' } }
          : { path, code: 'format', message: `must match format "${issue.format}"`, info: { format: issue.format } };
      case 'too_small':
        return {
          path,
          code: issue.origin === 'string' ? 'minLength' : 'minimum',
          message: issue.message,
          info: { limit: Number(issue.minimum) },
        };
      case 'too_big':
        return {
          path,
          code: issue.origin === 'string' ? 'maxLength' : 'maximum',
          message: issue.message,
          info: { limit: Number(issue.maximum) },
        };
      default:
        return { path, code: issue.code, message: issue.message, info: {} };
    }
  });
}

/** For a known path called with a method it does not support. */
export const methodNotAllowed = (): never => {
  throw new EmulatorError(405, {
    name: 'MethodNotAllowedError',
    message: 'This operation does not support the HTTP method used',
    code: 'MethodNotAllowed',
    details: { reason: 'MethodNotAllowed' },
  });
};
