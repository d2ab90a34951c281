/**
 * A unit's cancellation policy (products.cancellation_policy, migration 0216) in a guest's words, in English, Dutch
 * or German — for the widget before booking, and anywhere else a guest reads it. The words follow what the database
 * does when a booking is cancelled (staykit_internal.policy_refund_percentage): cancelled `days` days before arrival,
 * the rule with the most `days_before_arrival` at most `days` applies; later than every rule, nothing is refunded;
 * an empty policy refunds everything paid, whenever the guest cancels. Pure, no Node.js: browsers run it too.
 */

/** One rule of a policy: cancelled at least this many days before arrival, this percentage is refunded. */
export interface CancellationRule {
  days_before_arrival: number;
  refund_percentage: number;
}

/** Cancelled at least `days` days before arrival (and later than the band before it allows), `percentage` % back. */
export interface RefundBand {
  days: number;
  percentage: number;
}

/**
 * The policy as bands, earliest first, neighbours with the same refund merged, and without the bands at the end that
 * refund nothing (what comes after the last band refunds nothing anyway). `everything` for an empty policy.
 */
export function refundBands(policy: readonly CancellationRule[]): RefundBand[] | 'everything' {
  if (policy.length === 0) return 'everything';
  const byDays = new Map<number, number>();
  for (const rule of policy) if (!byDays.has(rule.days_before_arrival)) byDays.set(rule.days_before_arrival, rule.refund_percentage);
  const bands: RefundBand[] = [];
  for (const [days, percentage] of [...byDays].sort(([a], [b]) => b - a)) {
    const previous = bands.at(-1);
    if (previous?.percentage === percentage) previous.days = days; // the same refund reaches later
    else bands.push({ days, percentage });
  }
  while (bands.at(-1)?.percentage === 0) bands.pop();
  return bands;
}

interface Words {
  /** "{n} days before arrival", for n ≥ 2; `oneDay` and `arrivalDay` for 1 and 0. */
  days: string;
  oneDay: string;
  arrivalDay: string;
  free: string;
  partial: string;
  none: string;
  after: string;
  everything: string;
  nothing: string;
}

const WORDS: Record<'en' | 'nl' | 'de', Words> = {
  en: {
    days: '{n} days before arrival', oneDay: '1 day before arrival', arrivalDay: 'the day of arrival',
    free: 'Free cancellation until {when}.', partial: '{percentage} % refunded until {when}.', none: 'No refund until {when}.',
    after: 'No refund after that.', everything: 'Free cancellation: everything paid is refunded, whenever you cancel.',
    nothing: 'No refund if you cancel.',
  },
  nl: {
    days: '{n} dagen voor aankomst', oneDay: '1 dag voor aankomst', arrivalDay: 'de dag van aankomst',
    free: 'Gratis annuleren tot {when}.', partial: '{percentage} % terugbetaald tot {when}.', none: 'Geen terugbetaling tot {when}.',
    after: 'Daarna geen terugbetaling.', everything: 'Gratis annuleren: je krijgt alles terug wat je betaald hebt, wanneer je ook annuleert.',
    nothing: 'Bij annuleren geen terugbetaling.',
  },
  de: {
    days: '{n} Tage vor Anreise', oneDay: '1 Tag vor Anreise', arrivalDay: 'zum Anreisetag',
    free: 'Kostenlose Stornierung bis {when}.', partial: '{percentage} % Erstattung bis {when}.', none: 'Keine Erstattung bis {when}.',
    after: 'Danach keine Erstattung.', everything: 'Kostenlose Stornierung: Sie erhalten alles Gezahlte zurück, wann immer Sie stornieren.',
    nothing: 'Bei Stornierung keine Erstattung.',
  },
};

function wordsFor(language: string): Words {
  const primary = language.toLowerCase().split(/[-_]/)[0];
  return primary === 'nl' || primary === 'de' ? WORDS[primary] : WORDS.en;
}

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

/** The policy as sentences in `language` (en, nl or de; others read English), e.g. "Free cancellation until 30 days before arrival." */
export function describeCancellationPolicy(policy: readonly CancellationRule[], language: string): string[] {
  const words = wordsFor(language);
  const bands = refundBands(policy);
  if (bands === 'everything') return [words.everything];
  if (bands.length === 0) return [words.nothing];
  const when = (days: number) => (days === 0 ? words.arrivalDay : days === 1 ? words.oneDay : fill(words.days, { n: days }));
  return [
    ...bands.map(({ days, percentage }) =>
      fill(percentage === 100 ? words.free : percentage === 0 ? words.none : words.partial, { when: when(days), percentage })),
    words.after,
  ];
}
