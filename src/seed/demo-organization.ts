/**
 * The demo organization `staykit seed` (and the first embedded start) creates: four holiday homes with photos,
 * descriptions in English, Dutch and German, seasonal pricing, capacity groups, coupons, and a year of bookings around
 * today, so every endpoint has something to show.
 * Deterministic for a given day: the same pseudo-random sequence every run.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../db/types.js';
import { createApiKey } from '../auth/api-key-store.js';
import { addDemoUser, type DemoLogin } from '../users/demo-user.js';
import { seedDemoPhotos, type DemoMedia } from './demo-photos.js';
import { addDefaultTemplates } from '../automations/default-templates.js';
import { todayIn } from '../common/dates.js';

export interface SeededOrganization {
  organization_id: string;
  api_key: string;
  key_id: string;
  products: number;
  bookings: number;
  /** The dashboard login of the demo owner, when its password was set by this seed (else null). */
  dashboard_login: DemoLogin | null;
}

/** Small deterministic generator (mulberry32) so the demo data is reproducible. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const DEMO_TIME_ZONE = 'Europe/Amsterdam';
/** Today as the demo organization sees it (midnight UTC of its date): its dashboard's month is the seeded one. */
const today = () => Date.parse(`${todayIn(DEMO_TIME_ZONE)}T00:00:00Z`);

const PRODUCTS = [
  {
    name: 'Beach House', nl: 'Strandhuis', de: 'Strandhaus', scene: 'beach', rentPeriod: 'nightly', interaction: 'book', cooldown: 0, nightly: 14500, week: 12500,
    description: {
      default: 'A bright family house on the beach boulevard, the sea in front of the living room window. Three bedrooms, a sunny terrace sheltered from the wind and a garden shower for after the beach. Sleeps six.',
      nl: 'Een licht familiehuis aan de boulevard, met de zee voor het raam van de woonkamer. Drie slaapkamers, een zonnig terras uit de wind en een buitendouche voor na het strand. Voor zes personen.',
      de: 'Ein helles Familienhaus am Strandboulevard, das Meer vor dem Wohnzimmerfenster. Drei Schlafzimmer, eine sonnige, windgeschützte Terrasse und eine Außendusche für nach dem Strand. Für sechs Personen.',
    },
  },
  {
    name: 'Dune Cottage', nl: 'Duinhuisje', de: 'Dünenhäuschen', scene: 'dunes', rentPeriod: 'nightly', interaction: 'request', cooldown: 0, nightly: 9500, week: 8500,
    description: {
      default: 'A quiet cottage in the dunes, five minutes\' walk from the beach along a sandy path. A wood stove, two bedrooms and a garden where dogs are welcome. Booked on request: we answer within a day.',
      nl: 'Een rustig huisje in de duinen, vijf minuten lopen over een zandpad naar het strand. Een houtkachel, twee slaapkamers en een tuin waar honden welkom zijn. Op aanvraag: we antwoorden binnen een dag.',
      de: 'Ein ruhiges Häuschen in den Dünen, fünf Minuten zu Fuß über einen Sandweg zum Strand. Ein Holzofen, zwei Schlafzimmer und ein Garten, in dem Hunde willkommen sind. Auf Anfrage: Wir antworten innerhalb eines Tages.',
    },
  },
  {
    name: 'Harbour Apartment', nl: 'Havenappartement', de: 'Hafenwohnung', scene: 'harbour', rentPeriod: 'nightly', interaction: 'book', cooldown: 1, nightly: 11000, week: 9900,
    description: {
      default: 'A modern apartment on the third floor overlooking the marina, with a lift, a balcony facing the evening sun and restaurants at the door. Two bedrooms; no pets.',
      nl: 'Een modern appartement op de derde verdieping met uitzicht op de jachthaven, met lift, een balkon op de avondzon en restaurants voor de deur. Twee slaapkamers; geen huisdieren.',
      de: 'Eine moderne Wohnung im dritten Stock mit Blick auf den Jachthafen, mit Aufzug, einem Balkon in der Abendsonne und Restaurants vor der Tür. Zwei Schlafzimmer; keine Haustiere.',
    },
  },
  {
    name: 'Forest Cabin', nl: 'Boshut', de: 'Waldhütte', scene: 'forest', rentPeriod: 'daily', interaction: 'book', cooldown: 0, nightly: 7500, week: 6900,
    description: {
      default: 'A wooden cabin among the pines at the edge of the dunes, with a fire pit, bicycles to borrow and walking trails from the door. Rented by the day.',
      nl: 'Een houten hut tussen de dennen aan de rand van de duinen, met een vuurplaats, fietsen om te lenen en wandelpaden vanaf de deur. Per dag te huur.',
      de: 'Eine Holzhütte zwischen Kiefern am Rand der Dünen, mit Feuerstelle, Leihfahrrädern und Wanderwegen direkt vor der Tür. Tageweise zu mieten.',
    },
  },
] as const;

const GUESTS = [
  ['Emma', 'de Vries'], ['Liam', 'Jansen'], ['Sophie', 'Bakker'], ['Noah', 'Visser'], ['Mila', 'Smit'],
  ['Lucas', 'Meijer'], ['Julia', 'Mulder'], ['Daan', 'de Boer'], ['Anna', 'Dekker'], ['Finn', 'Bos'],
] as const;

/** Free cancellation up to 30 days before arrival, half back up to 14 days, nothing later (docs/payments.md#cancellations). */
const DEMO_CANCELLATION_POLICY = [{ days_before_arrival: 30, refund_percentage: 100 }, { days_before_arrival: 14, refund_percentage: 50 }];
const DEMO_CLEANING_FEE = 6500;

/** What a real business's settings would hold: who invoices, how to pay, the house rules guests accept. */
const DEMO_SETTINGS = {
  invoices: {
    payment_terms_days: 14,
    seller: {
      legal_name: 'Seaside Stays B.V.', vat_id: 'NL859123456B01', registration_number: 'KvK 81234567', email: 'hello@seaside-stays.example',
      address: { street: 'Boulevard Paulus Loot 12', postal_code: '2042 AD', city: 'Zandvoort', country: 'NL' },
    },
    payment_instructions: {
      default: 'Bank transfer to IBAN NL91 ABNA 0417 1643 00 (Seaside Stays B.V.), or pay online with the link in your e-mail.',
      'nl-NL': 'Overmaken naar IBAN NL91 ABNA 0417 1643 00 t.n.v. Seaside Stays B.V., of online betalen via de link in je e-mail.',
    },
  },
  // Guests accept these with the unit's cancellation policy before booking in the widget (migration 0225).
  booking_terms: {
    default: 'Check-in from 15:00, check-out by 11:00. No parties; quiet hours 22:00–08:00. Pets only where the unit allows them. The refundable deposit is returned within 14 days of departure, less any damage.',
    nl: 'Inchecken vanaf 15:00, uitchecken uiterlijk 11:00. Geen feesten; stilte tussen 22:00 en 08:00. Huisdieren alleen waar de accommodatie dat toestaat. De borg wordt binnen 14 dagen na vertrek terugbetaald, min eventuele schade.',
    de: 'Anreise ab 15:00 Uhr, Abreise bis 11:00 Uhr. Keine Partys; Nachtruhe 22:00–08:00 Uhr. Haustiere nur, wo die Unterkunft es erlaubt. Die Kaution wird innerhalb von 14 Tagen nach der Abreise erstattet, abzüglich etwaiger Schäden.',
  },
};

/**
 * docs/getting-started.md books the Beach House from 2027-02-03 to 2027-02-06 on the demo data: no demo booking or
 * block may take a night of that stay (its cooldown included), or the guide's first booking would answer 409.
 */
const GUIDE_STAY = { product: 'Beach House', start: Date.UTC(2027, 1, 3), end: Date.UTC(2027, 1, 6) };

/** Whether `[start, end)` of `product`, and the cooldown after it, would take a night of the guide's stay. */
function takesGuideStay(product: { name: string; cooldown: number }, start: number, end: number): boolean {
  return product.name === GUIDE_STAY.product && start < GUIDE_STAY.end && end + product.cooldown * DAY > GUIDE_STAY.start;
}

/** Inserts rows in one statement per distinct column set, so a column a row leaves out keeps its default. */
async function insertRows(tx: Transaction, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const byColumns = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const signature = Object.keys(row).sort().join(',');
    byColumns.set(signature, [...(byColumns.get(signature) ?? []), row]);
  }
  for (const [signature, group] of byColumns) {
    const list = signature.split(',').map((column) => `"${column}"`).join(', ');
    await tx.query(
      `INSERT INTO api.${table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::api.${table}, $1::jsonb)`,
      [JSON.stringify(group)],
    );
  }
}

async function seedCatalogue(tx: Transaction, random: () => number, year: number) {
  const groups = { adults: randomUUID(), children: randomUUID(), pets: randomUUID(), guests: randomUUID() };
  await insertRows(tx, 'capacity_groups', [
    { id: groups.adults, name: { default: 'Adults', 'nl-NL': 'Volwassenen' }, name_singular: { default: 'Adult' }, order: 1, requires_explicit_input: true, type: 'manual' },
    { id: groups.children, name: { default: 'Children', 'nl-NL': 'Kinderen' }, name_singular: { default: 'Child' }, order: 2, requires_explicit_input: false, type: 'manual' },
    { id: groups.pets, name: { default: 'Pets', 'nl-NL': 'Huisdieren' }, name_singular: { default: 'Pet' }, order: 3, requires_explicit_input: false, type: 'manual' },
    { id: groups.guests, name: { default: 'Guests', 'nl-NL': 'Gasten' }, name_singular: { default: 'Guest' }, order: 0, requires_explicit_input: false, type: 'sum' },
  ]);
  await insertRows(tx, 'capacity_group_dependencies', [
    { accumulator_id: groups.guests, element_id: groups.adults },
    { accumulator_id: groups.guests, element_id: groups.children },
  ]);
  const products = PRODUCTS.map((product) => ({ ...product, id: randomUUID() }));
  await insertRows(tx, 'products', products.map((product) => ({
    id: product.id,
    name: { default: product.name, 'nl-NL': product.nl, de: product.de },
    description: product.description,
    rent_period: product.rentPeriod,
    interaction: product.interaction,
    cooldown_time: product.cooldown,
    timezone: DEMO_TIME_ZONE,
    currency: 'EUR',
    approximate_address: 'Zandvoort, Netherlands',
    exact_address: `Boulevard ${1 + Math.floor(random() * 90)}, Zandvoort`,
    latest_arrival_time: '22:00',
    cancellation_policy: DEMO_CANCELLATION_POLICY,
  })));
  const everyDay = [true, true, true, true, true, true, true];
  const saturdays = [false, false, false, false, false, true, false];
  const allYear = `{[${year - 1}-01-01,${year + 3}-01-01)}`;
  const summer = `{[${year}-07-01,${year}-09-01),[${year + 1}-07-01,${year + 1}-09-01)}`;
  await insertRows(tx, 'product_configurations', products.flatMap((product) => [
    {
      product_id: product.id, name: { default: 'All year' }, order: 0, intervals: allYear, check_in_days: everyDay,
      checkout_days: everyDay, min_duration: 2, max_duration: 28, max_advance: 365, cooldown_time: product.cooldown,
      rates: [{ duration: 1, occupancy: 1, rate: product.nightly }, { duration: 7, occupancy: 1, rate: product.week }],
      long_rent_adjustments: [{ min_duration: 14, percentage: -10 }],
      early_bird_adjustments: [{ min_advance: 120, percentage: -5 }],
      last_minute_adjustments: [{ max_advance: 7, percentage: -15 }],
    },
    {
      product_id: product.id, name: { default: 'Summer weeks' }, order: 1, intervals: summer, color: '#f59e0b',
      check_in_days: saturdays, checkout_days: saturdays, min_duration: 7, max_duration: 21, max_advance: 365,
      cooldown_time: product.cooldown,
      rates: [{ duration: 7, occupancy: 1, rate: Math.round(product.week * 1.4) }],
    },
  ]));
  await insertRows(tx, 'capacities', products.flatMap((product) => [
    { product_id: product.id, capacity_group_id: groups.adults, min: 1, max: 6 },
    { product_id: product.id, capacity_group_id: groups.children, min: 0, max: 4 },
    { product_id: product.id, capacity_group_id: groups.pets, min: 0, max: product.name === 'Harbour Apartment' ? 0 : 2 },
    { product_id: product.id, capacity_group_id: groups.guests, min: 1, max: 6 },
  ]));
  // The cleaning crew and the tasks every stay sets off: cleaning after departure (assigned), the welcome check.
  const cleaner = randomUUID();
  await insertRows(tx, 'members', [{ id: cleaner, name: 'Sanne de Wit', email: 'sanne@seaside-stays.example', role: 'cleaner' }]);
  await insertRows(tx, 'product_tasks', products.flatMap((product) => [
    { product_id: product.id, label: 'Cleaning after departure', schedule: 'departure', offset_minutes: 60, assignee_id: cleaner },
    { product_id: product.id, label: 'Welcome check (keys, heating, welcome pack)', schedule: 'arrival', offset_minutes: -240 },
  ]));
  await insertRows(tx, 'coupons', [
    { code: 'WELCOME10', description: '10% off your first stay', scope: 'global', stackable: false, definition: { type: 'percentage', value: 10 } },
    { code: 'LONGSTAY', description: '€50 off the rent of stays of a week or more', scope: 'rent', stackable: true, quota: 100, definition: { type: 'fixed', value: 5000, min_duration: 7 } },
  ]);
  return { products, groups };
}

/**
 * A booking's price lines and payments as the booking flow would have left them: the rent (the week rate from seven
 * nights) and the cleaning fee; a 30 % deposit paid at booking and the rest due 14 days before arrival — paid once
 * that day has passed —, everything paid for a stay that is over, nothing for a cancelled one.
 */
function moneyOf(
  product: { nightly: number; week: number }, bookingId: string, status: string, start: number, nights: number, random: () => number,
) {
  const rent = nights * (nights >= 7 ? product.week : product.nightly);
  const total = rent + DEMO_CLEANING_FEE;
  const lines = [
    { booking_id: bookingId, item_type: 'rent', fee_type: 'fee', name: { default: 'Rent', 'nl-NL': 'Huur' }, quantity: nights, amount: rent },
    { booking_id: bookingId, item_type: 'service', fee_type: 'fee', name: { default: 'Final cleaning', 'nl-NL': 'Eindschoonmaak' }, quantity: 1, amount: DEMO_CLEANING_FEE },
  ];
  if (status === 'CANCELLED') return { lines, payments: [] };
  const deposit = Math.round(total * 0.3);
  const restDue = start - 14 * DAY;
  const method = random() < 0.5 ? 'card' : 'bank_transfer';
  const payments = [
    { booking_id: bookingId, amount: deposit, currency: 'EUR', method, status: status === 'TENTATIVE' ? 'pending' : 'paid', due_at: new Date(start - 60 * DAY).toISOString() },
    { booking_id: bookingId, amount: total - deposit, currency: 'EUR', method: 'bank_transfer', status: restDue < today() && status === 'CONFIRMED' ? 'paid' : 'pending', due_at: new Date(restDue).toISOString() },
  ];
  return { lines, payments };
}

async function seedBookings(
  tx: Transaction,
  organizationId: string,
  random: () => number,
  products: { id: string; name: string; interaction: string; cooldown: number; nightly: number; week: number }[],
  groups: { adults: string; children: string },
): Promise<number> {
  const bookings: Record<string, unknown>[] = [];
  const events: Record<string, unknown>[] = [];
  const contacts: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  for (const product of products) {
    let start = today() - 90 * DAY + Math.floor(random() * 5) * DAY;
    while (start < today() + 270 * DAY) {
      const nights = 2 + Math.floor(random() * 8);
      const end = start + nights * DAY;
      if (takesGuideStay(product, start, end)) {
        start = GUIDE_STAY.end + product.cooldown * DAY;
        continue;
      }
      const [first, last] = GUESTS[Math.floor(random() * GUESTS.length)]!;
      const bookingId = randomUUID();
      const contactId = randomUUID();
      const roll = random();
      const status = roll < 0.08 ? 'CANCELLED' : product.interaction === 'request' && roll < 0.3 ? 'TENTATIVE' : 'CONFIRMED';
      bookings.push({
        id: bookingId, method: product.interaction, currency: 'EUR', display_currency: 'EUR',
        occupancy: { [groups.adults]: 1 + Math.floor(random() * 3), [groups.children]: Math.floor(random() * 3) },
      });
      contacts.push({ id: contactId, first_name: first, last_name: last, email: `${first.toLowerCase()}.${bookings.length}@example.com`, country: 'NL', language: 'nl' });
      links.push({ booking_id: bookingId, contact_id: contactId });
      events.push({
        booking_id: bookingId, product_id: product.id, type: 'booking', status, start_date: isoDate(start), end_date: isoDate(end),
        padding: product.cooldown, title: `${first} ${last}`, generated_title: `${product.name} – ${first} ${last}`, origin: 'demo',
      });
      const money = moneyOf(product, bookingId, status, start, nights, random);
      lines.push(...money.lines);
      payments.push(...money.payments);
      start = end + (product.cooldown + Math.floor(random() * 9)) * DAY;
    }
    const maintenance = today() + (takesGuideStay(product, today() + 300 * DAY, today() + 304 * DAY) ? 310 : 300) * DAY;
    events.push({
      product_id: product.id, type: 'blocked period', status: 'CONFIRMED', title: 'Maintenance',
      start_date: isoDate(maintenance), end_date: isoDate(maintenance + 4 * DAY),
    });
  }
  await insertRows(tx, 'bookings', bookings);
  await insertRows(tx, 'contacts', contacts);
  await insertRows(tx, 'contact_bookings', links);
  await insertRows(tx, 'calendar_events', events);
  await insertRows(tx, 'line_items', lines);
  await insertRows(tx, 'payments', payments);
  // The demo's year of history is no news: its owner is not e-mailed about each seeded booking (migration 0219).
  await tx.query(`DELETE FROM staykit_internal.automation_jobs WHERE kind = 'host_notification' AND organization_id = staykit_internal.current_organization_id()`);
  // The default e-mails after the history, so that only what lies ahead is sent: pre-arrival and after-stay e-mails
  // of the coming stays, and the e-mails of new bookings (docs/automations.md#default-templates).
  await addDefaultTemplates(tx, organizationId);
  return bookings.length;
}

/** The organization, its catalogue, its key and the demo login: everything but the bookings. */
async function seedOrganization(tx: Transaction, name: string, random: () => number) {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO api.organizations (name, currency, timezone, settings) VALUES ($1, 'EUR', $2, $3) RETURNING id`,
    [name, DEMO_TIME_ZONE, JSON.stringify(DEMO_SETTINGS)],
  );
  const organizationId = rows[0]!.id;
  await actAs(tx, organizationId);
  const catalogue = await seedCatalogue(tx, random, new Date(today()).getUTCFullYear());
  const key = await createApiKey(tx, { organizationId, name: 'demo', scopes: ['read', 'write'], expiresAt: null });
  const dashboardLogin = await addDemoUser(tx, organizationId);
  const seeded = { organization_id: organizationId, api_key: key.api_key, key_id: key.key_id, products: catalogue.products.length, dashboard_login: dashboardLogin };
  return { seeded, catalogue };
}

/** Rows below take organization_id from this setting, exactly as API requests do. */
async function actAs(tx: Transaction, organizationId: string): Promise<void> {
  await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [organizationId]);
}

const DEMO_NAME = 'Seaside Stays (demo)';
const DEMO_SEED = 20_261_122;

/**
 * Creates the demo organization, its bookings and a read/write key for it, all in one transaction; then, given
 * somewhere to put them (`media`), the units' photos (uploads of their own, each in a transaction).
 */
export async function seedDemoOrganization(db: Database, name = DEMO_NAME, media?: DemoMedia): Promise<SeededOrganization> {
  const seeded = await db.transaction(async (tx) => {
    const random = generator(DEMO_SEED);
    const { seeded, catalogue } = await seedOrganization(tx, name, random);
    const bookings = await seedBookings(tx, seeded.organization_id, random, catalogue.products, catalogue.groups);
    return { ...seeded, bookings, units: catalogue.products };
  });
  const { units, ...organization } = seeded;
  if (media) await seedDemoPhotos(db, organization.organization_id, units, media);
  return organization;
}

export interface DemoInTwoSteps {
  organization: Omit<SeededOrganization, 'bookings'>;
  /** Adds the year of bookings in a transaction of its own, then the photos; resolves to how many bookings. */
  seedBookings(): Promise<number>;
}

/**
 * The same demo as `seedDemoOrganization` (same rows for a given day) in two transactions, for the first embedded
 * start: the organization, catalogue, key and login first, so the server can listen and print them, then the
 * bookings — most of the seed's time, spent in the calendar's triggers — while it already serves.
 */
export async function seedDemoOrganizationInTwoSteps(db: Database, name = DEMO_NAME, media?: DemoMedia): Promise<DemoInTwoSteps> {
  const random = generator(DEMO_SEED);
  const { seeded, catalogue } = await db.transaction((tx) => seedOrganization(tx, name, random));
  return {
    organization: seeded,
    seedBookings: async () => {
      const bookings = await db.transaction(async (tx) => {
        await actAs(tx, seeded.organization_id);
        return seedBookings(tx, seeded.organization_id, random, catalogue.products, catalogue.groups);
      });
      if (media) await seedDemoPhotos(db, seeded.organization_id, catalogue.products, media);
      return bookings;
    },
  };
}
