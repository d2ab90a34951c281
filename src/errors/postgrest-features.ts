/**
 * The engine's errors for the PostgREST 12/13 features of issue 16 (profiles, max-affected, aggregates, duplicate
 * embeds), worded as PostgREST words them. Codes and templates are in src/errors/registry.ts.
 */
import type { ApiError } from './api-error.js';
import { apiError } from './registry.js';

/** 406 PGRST106: `Accept-Profile` / `Content-Profile` names a schema that is not exposed. */
export function unacceptableSchema(schemas: readonly string[]): ApiError {
  return apiError('PGRST106', { params: { schemas: schemas.join(', ') } });
}

/** 400 PGRST124: a PATCH, DELETE or call touched more rows than `Prefer: max-affected` allows (handling=strict). */
export function maxAffectedViolation(affected: number): ApiError {
  return apiError('PGRST124', { details: `The query affects ${affected} rows` });
}

/** 400 PGRST123: aggregates in `select` where they are not enabled. */
export function aggregatesNotAllowed(): ApiError {
  return apiError('PGRST123');
}

/**
 * 400 42712: the same relationship embedded twice at one level without an alias. PostgREST 12.2 lets PostgreSQL
 * refuse the statement, whose two lateral joins share the alias `<parent>_<embed>_<depth>`; the same answer here,
 * before any SQL runs.
 */
export function duplicateEmbed(parent: string, embed: string, depth: number): ApiError {
  return apiError('42712', { params: { alias: `${parent}_${embed}_${depth}` } });
}

/** 400 PGRST127, as PostgREST 13 answers an aggregate inside a to-many spread. */
export function toManySpreadAggregate(): ApiError {
  return apiError('PGRST127', { details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.' });
}

/** 400 PGRST119, as PostgREST 12 answers a spread of a to-many embed (13 allows it). */
export function spreadNotToOne(origin: string, target: string): ApiError {
  return apiError('PGRST119', {
    params: { target },
    details: `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  });
}
