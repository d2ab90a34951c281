/**
 * What a new dashboard password must be (docs/dashboard.md#sessions-api), wherever it is set — the set-password link
 * and `staykit user … --password-stdin`: 10 to 256 characters, more than white space, and not easy to guess. The
 * last is zxcvbn-ts's estimate (the maintained TypeScript port of Dropbox's zxcvbn: common-password, English-word,
 * name and keyboard-pattern dictionaries, with l33t, reversed, repeated and sequence variants), which must reach
 * score 3 — at least 10^8 guesses, "safely unguessable" against online guessing — with the user's own e-mail address
 * counted as a known word. A refusal says why, in zxcvbn's words.
 *
 * zxcvbn's matching grows steeply with length, most of it trying l33t substitutions: on the shared 2-core
 * development machine one check of a 200-character password took 0.6–2 s of CPU with zxcvbn's defaults. A check runs
 * on the event loop, so it reads the first EVALUATED_LENGTH characters only and tries at most 3 substitutions: then
 * one check of a 200-character password took 3–15 ms of CPU there, under a load average of 4 (the l33t forms of
 * common passwords are still found). A longer password is judged by its beginning; what follows only makes it
 * harder to guess.
 *
 * The library and its dictionaries (~0.6 s to load) are imported by the first check, not at start: most processes
 * never set a password.
 */

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing it costs nothing unusual. */
export const MAX_PASSWORD_LENGTH = 256;
/** The characters zxcvbn reads (see above). */
const EVALUATED_LENGTH = 20;
/** zxcvbn's score a password must reach: 3 = at least 10^8 guesses. */
const MIN_SCORE = 3;

type Estimator = (password: string, userInputs: string[]) => { score: number; feedback: { warning: string | null; suggestions: string[] } };

let estimator: Promise<Estimator> | undefined;

function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')])
    .then(([{ ZxcvbnFactory }, common, english]) => {
      const zxcvbn = new ZxcvbnFactory({
        translations: english.translations,
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary, ...english.dictionary },
        maxLength: EVALUATED_LENGTH,
        l33tMaxSubstitutions: 3,
      });
      return (password, userInputs) => zxcvbn.check(password, userInputs);
    });
  estimator.catch(() => { estimator = undefined; });
  return estimator;
}

/** Why a new password cannot be used, or undefined when it can; `userInputs`: the user's e-mail address and the like. */
export async function passwordProblem(password: string, userInputs: readonly string[] = []): Promise<string | undefined> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'The password must be more than white space';
  // The address, its local part and the words in them: `ana.lima@…` makes `ana.lima2024` and `lima` known words.
  const words = userInputs.flatMap((input) => [input, input.split('@')[0]!, ...input.split(/[@.+_-]/)]).filter((word) => word.length >= 3);
  const { score, feedback } = (await loadEstimator())(password, words);
  if (score >= MIN_SCORE) return undefined;
  const advice = feedback.suggestions.length > 0 ? feedback.suggestions : ['A passphrase of a few uncommon words is strong and easy to remember.'];
  return ['The password is too easy to guess.', feedback.warning, ...advice].filter((part) => part).join(' ');
}
