/**
 * Which `match`/`imatch` patterns PostgreSQL may run. Its regex engine is fast on ordinary patterns, but some
 * forms make one match cost exponential or very high polynomial time, row after row, holding a connection (on
 * the embedded database, the only one) for the whole statement timeout:
 * - back references (`([a-z]+)*\1`): matched by backtracking;
 * - a quantifier applied to a group that holds one (`(a+)*`, `(x{1,100}){1,100}`);
 * - many quantified atoms (`x?x?x?…`): the automaton grows with each;
 * - embedded options and `***` directors, which switch to other syntaxes (BRE, where `\(` groups) the rules
 *   below do not read.
 * `unsafeRegexReason` reads the pattern as PostgreSQL's advanced syntax (ARE) and names the first such form.
 */

export const MAX_QUANTIFIERS = 20;

interface Group {
  /** A quantifier occurs somewhere inside the group. */
  quantified: boolean;
}

/** Index just past a bracket expression starting at `start` (`[`), per POSIX: `]` first is a literal, `[:x:]`. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length && pattern[i] !== ']') {
    const next = pattern[i + 1];
    if (pattern[i] === '[' && (next === ':' || next === '.' || next === '=')) {
      const close = pattern.indexOf(`${next}]`, i + 2);
      i = close < 0 ? pattern.length : close + 2;
    } else if (pattern[i] === '\\') {
      i += 2;
    } else {
      i += 1;
    }
  }
  return i + 1;
}

/** Length of the quantifier at `i` (`*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`, each maybe followed by `?`), or 0. */
function quantifierLength(pattern: string, i: number): number {
  const char = pattern[i];
  let length = 0;
  if (char === '*' || char === '+' || char === '?') length = 1;
  else if (char === '{') length = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i))?.[0].length ?? 0;
  if (length > 0 && pattern[i + length] === '?') length += 1;
  return length;
}

export function unsafeRegexReason(pattern: string): string | undefined {
  if (pattern.startsWith('***') || /^\(\?[a-z]+\)/.test(pattern)) {
    return 'embedded options ((?…) at the start) and *** directors are not supported';
  }
  const groups: Group[] = [{ quantified: false }];
  let quantifiers = 0;
  /** The atom just read was a group, and whether it held a quantifier. */
  let lastGroup: Group | undefined;
  let atomBefore = false;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i]!;
    const quantifier = atomBefore ? quantifierLength(pattern, i) : 0;
    if (quantifier > 0) {
      quantifiers += 1;
      if (quantifiers > MAX_QUANTIFIERS) return `a pattern may hold at most ${MAX_QUANTIFIERS} quantifiers (*, +, ?, {m,n})`;
      if (lastGroup?.quantified) return 'a quantified group may not hold a quantifier itself, as in (a+)*';
      for (const group of groups) group.quantified = true;
      lastGroup = undefined;
      atomBefore = false;
      i += quantifier;
      continue;
    }
    lastGroup = undefined;
    atomBefore = true;
    if (char === '\\') {
      if (/[1-9]/.test(pattern[i + 1] ?? '')) return 'back references (\\1 … \\9) are not supported';
      i += 2;
    } else if (char === '[') {
      i = bracketEnd(pattern, i);
    } else if (char === '(') {
      groups.push({ quantified: false });
      atomBefore = false;
      // (?: (?= (?! (?<= (?<! open groups too; what follows the marker is the group's content.
      const marker = /^\(\?(?::|=|!|<=|<!)/.exec(pattern.slice(i))?.[0];
      i += marker?.length ?? 1;
    } else if (char === ')') {
      const closed = groups.length > 1 ? groups.pop() : undefined;
      lastGroup = closed;
      i += 1;
    } else {
      atomBefore = char !== '|' && char !== '^';
      i += 1;
    }
  }
  return undefined;
}
