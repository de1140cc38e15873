import { describe, expect, test } from 'vitest';
import { statusOf } from '../../reference/engine/http/error-responses.ts';
import { HttpError } from '../../reference/http-error.ts';
import {
  AmbiguousReferenceError,
  ConflictError,
  InvalidParameterError,
  MissingCommandError,
  NotFoundError,
} from '../../reference/engine/model/common/errors.ts';

describe('statusOf', () => {
  test('each kind of model error has its status', () => {
    expect(statusOf(new NotFoundError('x'), '1.25')).toBe(404);
    expect(statusOf(new ConflictError('x'), '1.25')).toBe(409);
    expect(statusOf(new InvalidParameterError('x'), '1.25')).toBe(400);
    expect(statusOf(new AmbiguousReferenceError('x'), '1.25')).toBe(400);
    expect(statusOf(new HttpError(501, 'x'), '1.25')).toBe(501);
    expect(statusOf(new Error('x'), '1.25')).toBe(500);
  });

  test('a missing command is 500 before 1.24 and 400 from 1.24', () => {
    expect(statusOf(new MissingCommandError(), '1.23')).toBe(500);
    expect(statusOf(new MissingCommandError(), '1.24')).toBe(400);
  });
});
