import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/errors/api-error.js';
import { ambiguousRelationship, noRelationship, tableNotFound } from '../../src/errors/catalogue.js';
import { fromDatabaseError, statusForSqlState } from '../../src/errors/database-error.js';

describe('SQLSTATE → HTTP status (PostgREST mapping)', () => {
  const cases: [string, number, string?][] = [
    ['23505', 409],
    ['23503', 409],
    ['23P01', 409],
    ['23502', 400],
    ['23514', 400],
    ['22P02', 400],
    ['22007', 400],
    ['22008', 400],
    ['22023', 400],
    ['22023', 401, 'role "x" does not exist'],
    ['P0001', 400],
    ['P0002', 500],
    ['42501', 403],
    ['42883', 404],
    ['42P01', 404],
    ['42703', 400],
    ['42P10', 400],
    ['57014', 500],
    ['57P01', 503],
    ['40001', 500],
    ['40P01', 500],
    ['25006', 405],
    ['08006', 503],
    ['53300', 503],
    ['53400', 500],
    ['54001', 500],
    ['XX000', 500],
    ['21000', 500],
    ['21000', 400, 'DELETE requires a WHERE clause'],
  ];
  for (const [code, status, message] of cases) {
    it(`${code}${message ? ` (${message})` : ''} → ${status}`, () => assert.equal(statusForSqlState(code, message ?? ''), status));
  }
  it('42501 is 401 for anonymous requests', () => assert.equal(statusForSqlState('42501', '', false), 401));
});

describe('fromDatabaseError', () => {
  it('keeps message, detail and hint of a pg/PGlite error', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "x_pkey"'), {
      code: '23505',
      detail: 'Key (id)=(1) already exists.',
      hint: undefined,
    });
    const mapped = fromDatabaseError(error);
    assert.equal(mapped.status, 409);
    assert.deepEqual(mapped.toBody(), {
      code: '23505',
      message: 'duplicate key value violates unique constraint "x_pkey"',
      details: 'Key (id)=(1) already exists.',
      hint: null,
    });
  });
  it('passes ApiErrors through and hides other errors', () => {
    const api = new ApiError(418, 'X', 'teapot');
    assert.equal(fromDatabaseError(api), api);
    const other = fromDatabaseError(new TypeError('secret internals'));
    assert.equal(other.status, 500);
    assert.equal(other.message.includes('secret'), false);
  });
});

describe('catalogue messages', () => {
  it('PGRST205, PGRST200, PGRST201', () => {
    assert.deepEqual(tableNotFound('api', 'prodcts', 'products').toBody(), {
      code: 'PGRST205',
      message: "Could not find the table 'api.prodcts' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'api.products'",
    });
    assert.equal(
      noRelationship('api', 'a', 'b', 'h', null).details,
      "Searched for a foreign key relationship between 'a' and 'b' using the hint 'h' in the schema 'api', but no matches were found.",
    );
    const ambiguous = ambiguousRelationship('a', 'b', [
      { cardinality: 'many-to-one', embedding: 'a with b', relationship: 'fk1 using a(x) and b(id)', hintName: 'b!fk1' },
      { cardinality: 'many-to-one', embedding: 'a with b', relationship: 'fk2 using a(y) and b(id)', hintName: 'b!fk2' },
    ]);
    assert.equal(ambiguous.status, 300);
    assert.equal(ambiguous.hint, "Try changing 'b' to one of the following: 'b!fk1', 'b!fk2'. Find the desired relationship in the 'details' key.");
    assert.deepEqual(ambiguous.toBody().details, [
      { cardinality: 'many-to-one', embedding: 'a with b', relationship: 'fk1 using a(x) and b(id)' },
      { cardinality: 'many-to-one', embedding: 'a with b', relationship: 'fk2 using a(y) and b(id)' },
    ]);
  });
});
