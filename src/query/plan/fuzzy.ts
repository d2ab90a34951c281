/** "Perhaps you meant …" suggestions: the closest name by trigram-ish similarity, like PostgREST's FuzzySet. */

function grams(value: string): string[] {
  const padded = `-${value.toLowerCase()}-`;
  const result: string[] = [];
  for (let size = 2; size <= 3; size += 1) {
    for (let i = 0; i + size <= padded.length; i += 1) result.push(padded.slice(i, i + size));
  }
  return result;
}

/** Cosine similarity of the 2- and 3-gram bags of two names, 0…1. */
export function similarity(a: string, b: string): number {
  const countsA = new Map<string, number>();
  const countsB = new Map<string, number>();
  for (const g of grams(a)) countsA.set(g, (countsA.get(g) ?? 0) + 1);
  for (const g of grams(b)) countsB.set(g, (countsB.get(g) ?? 0) + 1);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [g, n] of countsA) {
    normA += n * n;
    dot += n * (countsB.get(g) ?? 0);
  }
  for (const n of countsB.values()) normB += n * n;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

export function closest(name: string, candidates: Iterable<string>, minScore: number): string | null {
  let best: string | null = null;
  let bestScore = minScore;
  for (const candidate of candidates) {
    const score = similarity(name, candidate);
    if (score >= bestScore && candidate !== name) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
