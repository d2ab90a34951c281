/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined for any other shape. */
export function bearerToken(header: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}
