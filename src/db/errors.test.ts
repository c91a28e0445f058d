import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is shutting down', '57P03'),
    withCode('connection failure', '08006'),
    withCode('read ECONNRESET', 'ECONNRESET'),
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated'),
  ])('is true for a lost or refused connection: %s', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });
  it.each([
    withCode('deadlock detected', '40P01'),
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('syntax error at or near', '42601'),
    new Error('Connection terminated by a user-defined reason'),
    'ECONNRESET',
    null,
  ])('is false for anything else: %s', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
