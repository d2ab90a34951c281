/**
 * <staykit-widget key="pk_…" [api="https://staykit.example"] [lang="nl"] [product="<uuid>"]>: the booking widget
 * (docs/widget.md). It reads the widget's catalogue with its publishable key, shows the chosen unit's photos,
 * description and key facts (unit-info.ts), its availability in a month calendar, asks for guests and extras, quotes the stay, takes the guest's details, shows the unit's
 * cancellation policy and the organization's booking terms (accepted with a checkbox when there are terms) and books. It
 * lives in a shadow root (styles isolated both ways) and tells the page what happens through DOM events:
 * staykit:ready, staykit:dates, staykit:quote, staykit:booked and staykit:error (bubbling, composed; detail below).
 * <staykit-widget preview="<uuid>">, in the dashboard only, shows that unit with the member's session instead of a key
 * (docs/dashboard.md#unit-preview): everything a guest sees up to the price, which it does not ask for.
 */
import { ApiFailure, StaykitApi } from './api.js';
import { endsStay, moveFocus, renderCalendar, selectable, type Selection } from './calendar.js';
import { addDays, esc, formatDate, money, monthOf, shiftMonth, today } from './format.js';
import { chooseLanguage, localize, translator, type Translate } from './i18n.js';
import { STYLES } from './styles.js';
import { bookingTermsText, termsAccepted, termsSection } from './terms.js';
import { renderUnitInfo } from './unit-info.js';
import type { BookingBody, Booked, Catalogue, Day, Product, ProductAvailability, Quote, Service } from './types.js';

/** The origin this script was loaded from: the default Staykit to talk to. */
const SCRIPT_ORIGIN = document.currentScript instanceof HTMLScriptElement ? new URL(document.currentScript.src).origin : location.origin;

const FORM_FIELD_TYPES = new Set(['text', 'email', 'phone']);
const COLOR = /^#[0-9a-f]{3,8}$/i;
const CURRENCY = /^[A-Z]{3}$/;
/** A key that does not work (any longer) from this page: revoked or unknown (SK401), or this origin not allowed (SK722). */
const KEY_REFUSALS = new Set(['SK401', 'SK722']);

class StaykitWidget extends HTMLElement {
  private readonly root = this.attachShadow({ mode: 'open' });
  private api!: StaykitApi;
  private catalogue!: Catalogue;
  private product!: Product;
  private language = 'en';
  private t: Translate = translator('en');
  private days = new Map<string, Day>();
  private month = monthOf(today());
  private focused = today();
  private selection: Selection = { start: null, end: null };
  /** The unit the dashboard previews, or null on a booking website. Not named `preview`: React 19 would set a
   * property of that name instead of the attribute. */
  private previewUnit: string | null = null;

  connectedCallback(): void {
    if (this.api) return;
    this.previewUnit = this.getAttribute('preview');
    const key = this.previewUnit === null ? this.getAttribute('key') ?? '' : null;
    this.api = new StaykitApi(new URL(this.getAttribute('api') ?? SCRIPT_ORIGIN, location.href).href, key);
    this.root.innerHTML = `<style>${STYLES}</style><div class="sk"><p role="status">Loading…</p></div>`;
    void this.start();
  }

  private async start(): Promise<void> {
    const asked = this.getAttribute('lang');
    const preferred = asked ? [asked] : navigator.languages;
    // The guest's language before the catalogue names the widget's: a refusal of the catalogue is shown in it.
    this.useLanguage(chooseLanguage(preferred, 'en'));
    try {
      this.catalogue = await this.api.get<Catalogue>(this.previewUnit === null ? '/v1/widget' : `/admin/api/unit-preview/${encodeURIComponent(this.previewUnit)}`);
      const fallback = this.catalogue.widget?.language ?? this.catalogue.site?.default_language ?? 'en';
      this.useLanguage(chooseLanguage(preferred, fallback));
      this.applyColors(this.catalogue.widget?.settings ?? {});
      const wanted = this.getAttribute('product');
      const product = this.catalogue.products.find((p) => p.id === wanted) ?? this.catalogue.products[0];
      // A widget without units takes no booking; a revoked key's catalogue is empty too while its lookup is cached.
      if (!product) return this.report({ code: 'no_units', message: 'This widget lists no units', details: null });
      this.renderShell();
      await this.selectProduct(product);
      this.emit('staykit:ready', { widget_id: this.catalogue.widget?.id ?? null, products: this.catalogue.products.map((p) => p.id) });
    } catch (error) {
      this.fail(error);
    }
  }

  private useLanguage(language: string): void {
    this.language = language;
    this.t = translator(language);
  }

  private applyColors(settings: Record<string, unknown>): void {
    for (const [setting, variable] of [['primary_color', '--sk-primary'], ['background_color', '--sk-background'], ['text_color', '--sk-text']]) {
      const value = settings[setting!];
      if (typeof value === 'string' && COLOR.test(value)) this.style.setProperty(variable!, value);
    }
  }

  private $(selector: string): HTMLElement {
    return this.root.querySelector<HTMLElement>(selector)!;
  }

  private renderShell(): void {
    const { t } = this;
    const products = this.catalogue.products;
    const picker = products.length > 1
      ? `<div class="field"><label for="unit">${esc(t('unit'))}</label><select id="unit">${products.map((p) => `<option value="${p.id}">${esc(localize(p.name, this.language))}</option>`).join('')}</select></div>`
      : '';
    this.root.innerHTML = `<style>${STYLES}</style><div class="sk" lang="${esc(this.language)}">
<h2 id="title"></h2>${picker}<div id="unit-info"></div>
<section aria-labelledby="calendar-title"><h3 id="calendar-title">${esc(t('calendar'))}</h3><div id="calendar"></div>
<p class="legend" id="selection" role="status" aria-live="polite">${esc(t('chooseCheckIn'))}</p></section>
<form id="stay" novalidate><fieldset id="guests"><legend>${esc(t('guests'))}</legend></fieldset><fieldset id="extras"><legend>${esc(t('extras'))}</legend></fieldset>
<fieldset id="details"><legend>${esc(t('details'))}</legend></fieldset>
<div class="field"><label for="coupon">${esc(t('coupon'))}</label><input id="coupon" name="coupon" autocomplete="off"></div>
${this.previewUnit === null ? `<button type="submit" class="primary">${esc(t('quote'))}</button>` : `<p class="legend" data-preview>${esc(t('previewNote'))}</p>`}</form>
<section id="quote" class="quote" aria-labelledby="quote-title" hidden></section>
<form id="book" novalidate hidden></form>
<p id="error" class="error" role="alert"></p>
<section id="done" class="done" hidden tabindex="-1"></section></div>`;
    this.root.querySelector('#unit')?.addEventListener('change', (event) => {
      const product = products.find((p) => p.id === (event.target as HTMLSelectElement).value);
      if (product) void this.selectProduct(product).catch((error) => this.fail(error));
    });
    this.$('#calendar').addEventListener('click', (event) => this.onCalendarClick(event));
    this.$('#calendar').addEventListener('keydown', (event) => this.onCalendarKey(event));
    this.$('#stay').addEventListener('input', () => {
      this.$('#quote').hidden = true;
      this.$('#book').hidden = true;
    });
    this.$('#stay').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.quote();
    });
    this.$('#book').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.book();
    });
  }

  private async selectProduct(product: Product): Promise<void> {
    this.product = product;
    this.selection = { start: null, end: null };
    this.$('#title').textContent = localize(product.name, this.language);
    renderUnitInfo(this.$('#unit-info'), product, this.catalogue, this.language, this.t);
    this.$('#quote').hidden = true;
    this.$('#book').hidden = true;
    this.renderGuests();
    this.renderExtras();
    this.renderDetails();
    const [availability] = await this.api.get<ProductAvailability[]>(`/v1/availability?product_ids=${product.id}&include=days`);
    this.days = new Map((availability?.days ?? []).map((day) => [day.date, day]));
    const firstFree = [...this.days.values()].find((day) => day.check_in && day.status === 'available');
    this.focused = firstFree?.date ?? today();
    this.month = monthOf(this.focused);
    this.renderCalendar();
  }

  private services(): Service[] {
    return this.product.service_ids.map((id) => this.catalogue.services.find((s) => s.id === id)).filter((s): s is Service => s !== undefined);
  }

  private renderGuests(): void {
    const { t } = this;
    const groups = this.catalogue.capacity_groups.filter((g) => g.element_ids.length === 0);
    // Each group starts at its minimum; when no group needs anyone, the first starts at one guest.
    const someoneRequired = groups.some((group) => (this.product.capacities.find((c) => c.capacity_group_id === group.id)?.min ?? 0) > 0);
    const rows = groups.map((group, index) => {
      const limits = this.product.capacities.find((c) => c.capacity_group_id === group.id);
      if (!limits && !group.requires_explicit_input) return '';
      const min = limits?.min ?? 0;
      const max = limits?.max ?? null;
      const value = index === 0 && !someoneRequired ? Math.max(min, 1) : min;
      const range = max === null ? t('atLeast', { min }) : t('between', { min, max });
      return `<div class="field"><label for="g-${group.id}">${esc(localize(group.name, this.language))} <span class="hint">(${esc(range)})</span></label>`
        + `<input type="number" id="g-${group.id}" data-group="${group.id}" min="${min}"${max === null ? '' : ` max="${max}"`} value="${value}" inputmode="numeric"></div>`;
    });
    this.$('#guests').innerHTML = `<legend>${esc(t('guests'))}</legend>${rows.join('')}`;
  }

  private renderExtras(): void {
    const { t } = this;
    const rows = this.services().filter((s) => !FORM_FIELD_TYPES.has(s.type) && s.type !== 'fee').map((service) => {
      const id = `s-${service.id}`;
      const name = esc(localize(service.name, this.language));
      const price = service.pricing ? ` <span class="hint">(${esc(money(service.pricing.amount, this.product.currency, this.language))})</span>` : '';
      const required = service.required ? ' required aria-required="true"' : '';
      switch (service.type) {
        case 'checkbox':
          return `<div class="field"><input type="checkbox" id="${id}" data-service="${service.id}"${service.required ? ' checked' : ''}${required}><label for="${id}">${name}${price}</label></div>`;
        case 'select':
          return `<div class="field"><label for="${id}">${name}</label><select id="${id}" data-service="${service.id}"${required}>`
            + `${service.required ? '' : `<option value="">${esc(t('none'))}</option>`}${service.options.map((o) => `<option value="${o.id}">${esc(localize(o.name, this.language))}</option>`).join('')}</select></div>`;
        default:
          return `<div class="field"><label for="${id}">${name}${price}</label><input type="number" id="${id}" data-service="${service.id}" min="0"${service.max_quantity ? ` max="${service.max_quantity}"` : ''} value="${service.required ? 1 : 0}"${required}></div>`;
      }
    });
    const extras = this.$('#extras');
    extras.hidden = rows.length === 0;
    extras.innerHTML = `<legend>${esc(t('extras'))}</legend>${rows.join('')}`;
  }

  private renderCalendar(focus = false): void {
    this.$('#calendar').innerHTML = renderCalendar({
      days: this.days, month: this.month, focused: this.focused, selection: this.selection,
      currency: this.product.currency, language: this.language, rentPeriod: this.product.rent_period, t: this.t,
    });
    this.$('#calendar .prev').addEventListener('click', () => this.showMonth(-1));
    this.$('#calendar .next').addEventListener('click', () => this.showMonth(1));
    if (focus) this.root.querySelector<HTMLElement>(`[data-date="${this.focused}"]`)?.focus();
  }

  private showMonth(by: number): void {
    this.month = shiftMonth(this.month, by);
    this.focused = `${this.month}-01`;
    this.renderCalendar();
  }

  private onCalendarClick(event: Event): void {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-date]');
    if (button) this.pick(button.dataset.date!);
  }

  private onCalendarKey(event: KeyboardEvent): void {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-date]');
    if (!button) return;
    const next = moveFocus(button.dataset.date!, event.key);
    if (next === undefined) return;
    event.preventDefault();
    this.focused = next;
    this.month = monthOf(next);
    this.renderCalendar(true);
  }

  /** The stay's minimum length when `date` would end it too soon after the picked check-in, else undefined. */
  private tooShort(date: string): number | undefined {
    const { start, end } = this.selection;
    if (start === null || end !== null || date <= start || !this.days.get(date)?.checkout) return undefined;
    const daily = this.product.rent_period === 'daily';
    const minimum = this.days.get(start)?.min_duration ?? 0;
    const length = Math.round((Date.parse(date) - Date.parse(start)) / 86_400_000) + (daily ? 1 : 0);
    return length < minimum ? minimum : undefined;
  }

  private pick(date: string): void {
    const model = { days: this.days, selection: this.selection, rentPeriod: this.product.rent_period };
    const daily = this.product.rent_period === 'daily';
    // A checkout too soon after the check-in says why, instead of starting the pick again from that day.
    const minimum = this.tooShort(date);
    if (minimum !== undefined) {
      const earliest = addDays(this.selection.start!, daily ? minimum - 1 : minimum);
      this.$('#selection').textContent = this.t(daily ? 'minimumDays' : 'minimumStay', { n: minimum, date: formatDate(earliest, this.language) });
      return;
    }
    if (!selectable(model, date)) return;
    this.selection = endsStay(model, date) ? { start: this.selection.start, end: date } : { start: date, end: null };
    this.focused = date;
    this.renderCalendar(true);
    const status = this.$('#selection');
    if (this.selection.end) {
      status.textContent = this.t('datesChosen', { start: formatDate(this.selection.start!, this.language), end: formatDate(this.selection.end, this.language) });
      this.emit('staykit:dates', { product_id: this.product.id, start: this.selection.start, end: this.selection.end });
    } else {
      const minimum = this.days.get(date)?.min_duration ?? 0;
      status.textContent = minimum > 1
        ? this.t(daily ? 'chooseLastDayMinimum' : 'chooseCheckoutMinimum', { date: formatDate(date, this.language), n: minimum })
        : this.t('chooseCheckout', { date: formatDate(date, this.language) });
    }
  }

  /** The stay as the booking flow takes it. */
  private stay(): BookingBody {
    const occupancy: Record<string, number> = {};
    for (const input of this.root.querySelectorAll<HTMLInputElement>('[data-group]')) occupancy[input.dataset.group!] = Number(input.value) || 0;
    const formValues: Record<string, string | number | boolean> = {};
    for (const input of this.root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-service]')) {
      const value = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input instanceof HTMLInputElement && input.type === 'number' ? Number(input.value) || 0 : input.value;
      if (value !== '' && value !== 0 && value !== false) formValues[input.dataset.service!] = value;
    }
    const contact: Record<string, string> = {};
    for (const input of this.root.querySelectorAll<HTMLInputElement>('[data-detail]')) {
      const value = input.value.trim();
      if (value === '') continue;
      formValues[input.dataset.detail!] = value;
      if (input.dataset.kind === 'email') contact.email = value;
      if (input.dataset.kind === 'phone') contact.phone = value;
    }
    for (const [id, name] of [['#first-name', 'first_name'], ['#last-name', 'last_name'], ['#contact-email', 'email']] as const) {
      const value = this.root.querySelector<HTMLInputElement>(id)?.value.trim();
      if (value) contact[name] = value;
    }
    const coupon = (this.$('#coupon') as HTMLInputElement).value.trim();
    const display = this.catalogue.widget?.settings.display_currency;
    return {
      // Asked for with both dates chosen (quote() checks; book() follows a quote).
      product_id: this.product.id, interval: { start: this.selection.start ?? '', end: this.selection.end ?? '' }, occupancy,
      form_values: formValues, coupon_codes: coupon ? [coupon] : [], language: this.language, contact,
      ...(typeof display === 'string' && CURRENCY.test(display) && display !== this.product.currency ? { currency: display } : {}),
    };
  }

  private async quote(): Promise<void> {
    this.clearError();
    if (this.previewUnit !== null) return;
    if (!this.selection.start || !this.selection.end) return this.showError(this.t('selectDates'));
    await this.busy('#stay', async () => {
      const quote = await this.api.post<Quote>('/v1/quote', this.stay());
      this.renderQuote(quote);
      this.showBookButton();
      this.emit('staykit:quote', quote);
    });
  }

  private renderQuote(quote: Quote): void {
    const { t } = this;
    const fmt = (amount: number) => esc(money(amount, quote.currency, this.language));
    const fees = quote.line_items.filter((item) => item.fee_type === 'fee');
    const section = this.$('#quote');
    section.innerHTML = `<h3 id="quote-title">${esc(t('price'))}</h3><table><tbody>${fees.map((item) => `<tr><td>${esc(item.name)}${item.quantity > 1 ? ` × ${item.quantity}` : ''}</td><td class="n">${fmt(item.amount)}</td></tr>`).join('')}</tbody>`
      + `<tfoot><tr><th scope="row">${esc(t('total'))}</th><td class="n" data-total>${fmt(quote.total)}</td></tr>`
      + (quote.display_currency !== quote.currency
        ? `<tr><th scope="row">≈ ${esc(quote.display_currency)}</th><td class="n" data-display-total>${esc(money(quote.display_total, quote.display_currency, this.language))}</td></tr>` : '')
      + `${quote.deposit > 0 ? `<tr><th scope="row">${esc(t('deposit'))}</th><td class="n">${fmt(quote.deposit)}</td></tr>` : ''}</tfoot></table>`
      + this.scheduleList(quote);
    section.hidden = false;
  }

  /** When what is paid, before booking: the first payment "now" when it is due today, then each later one by its date. */
  private scheduleList(quote: Quote): string {
    const schedule = quote.payment_schedule ?? [];
    if (schedule.length === 0) return '';
    // "Today" is the unit's, which the server dated the schedule by: a payment due at booking is dated that day, and
    // the guest's browser may already (or still) be a day apart from it around midnight.
    const dueAtBooking = schedule.find((payment) => payment.moment.type === 'confirmation' && payment.moment.offset === 0)?.due_date;
    const now = dueAtBooking !== undefined && dueAtBooking > today() ? dueAtBooking : today();
    const items = schedule.map((payment) => {
      const amount = money(payment.amount, quote.currency, this.language);
      return `<li>${esc(payment.due_date <= now ? this.t('payNow', { amount }) : this.t('payOn', { amount, date: formatDate(payment.due_date, this.language) }))}</li>`;
    });
    return `<h4>${esc(this.t('paymentSchedule'))}</h4><ul data-schedule>${items.join('')}</ul>`;
  }

  /** The guest's name and e-mail, and the product's booking-detail fields (asked before the quote: they may be priced or required). */
  private renderDetails(): void {
    const { t } = this;
    const field = (id: string, label: string, type: string, autocomplete: string, required: boolean, data = '') =>
      `<div class="field"><label for="${id}">${esc(label)}${required ? ` <span class="hint">(${esc(t('required'))})</span>` : ''}</label>`
      + `<input id="${id}" type="${type}" autocomplete="${autocomplete}"${required ? ' required aria-required="true"' : ''}${data}></div>`;
    const details = this.services().filter((s) => FORM_FIELD_TYPES.has(s.type));
    const hasEmailField = details.some((s) => s.type === 'email');
    this.$('#details').innerHTML = `<legend>${esc(t('details'))}</legend>`
      // Who books must be reachable: a name and an e-mail address (the server refuses a booking without, SK648).
      + field('first-name', t('firstName'), 'text', 'given-name', true)
      + field('last-name', t('lastName'), 'text', 'family-name', false)
      + (hasEmailField ? '' : field('contact-email', t('email'), 'email', 'email', true))
      + details.map((s) => field(`d-${s.id}`, localize(s.name, this.language), s.type === 'phone' ? 'tel' : s.type, s.type === 'email' ? 'email' : s.type === 'phone' ? 'tel' : 'off', s.required, ` data-detail="${s.id}" data-kind="${s.type}"`)).join('');
  }

  /** What the guest agrees to (the policy; the terms and their checkbox when there are terms), then the Book button. */
  private showBookButton(): void {
    const form = this.$('#book');
    form.innerHTML = termsSection(this.product, this.bookingTerms(), this.language, this.t)
      + `<button type="submit" class="primary">${esc(this.product.interaction === 'book' ? this.t('book') : this.t('request'))}</button>`;
    form.querySelector('#accept-terms')?.addEventListener('change', () => termsAccepted(this.root, this.t));
    form.hidden = false;
  }

  private bookingTerms(): string {
    return bookingTermsText(this.catalogue.booking_terms, this.language);
  }

  private async book(): Promise<void> {
    this.clearError();
    const contact = this.stay().contact ?? {};
    if (!(contact.first_name || contact.last_name) || !contact.email) {
      this.showError(this.t('contactRequired'));
      this.root.querySelector<HTMLInputElement>(contact.first_name || contact.last_name ? '#contact-email, [data-kind=email]' : '#first-name')?.focus();
      return;
    }
    // Nothing is sent before the guest accepted the terms (the server would refuse: 422 SK649).
    if (!termsAccepted(this.root, this.t)) return;
    const accepted = this.bookingTerms() === '' ? {} : { accept_terms: true };
    await this.busy('#book', async () => {
      const booked = await this.api.post<Booked>('/v1/book', { ...this.stay(), ...accepted });
      this.renderDone(booked);
      this.emit('staykit:booked', booked);
    });
  }

  private renderDone(booked: Booked): void {
    const { t } = this;
    const message = localize(this.product.confirmation_message, this.language);
    const done = this.$('#done');
    done.innerHTML = `<p><strong>${esc(t(this.product.interaction === 'book' ? 'confirmed' : 'requested', { reference: booked.reference }))}</strong></p>`
      + (message ? `<p>${esc(message)}</p>` : '')
      + (booked.payment_url ? `<p><a class="primary" href="${esc(booked.payment_url)}" target="_top">${esc(t('pay'))}</a></p>` : '')
      + (booked.guest_url ? `<p><a href="${esc(booked.guest_url)}" target="_blank" rel="noopener">${esc(t('guestPage'))}</a></p>` : '');
    for (const id of ['#stay', '#book', '#quote']) this.$(id).hidden = true;
    this.$('#calendar').hidden = true;
    done.hidden = false;
    done.focus();
  }

  private async busy(form: string, work: () => Promise<void>): Promise<void> {
    const button = this.root.querySelector<HTMLButtonElement>(`${form} button[type=submit]`)!;
    button.disabled = true;
    try {
      await work();
    } catch (error) {
      this.fail(error);
    } finally {
      button.disabled = false;
    }
  }

  private clearError(): void {
    const error = this.root.querySelector('#error');
    if (error) error.textContent = '';
  }

  private showError(message: string): void {
    const error = this.root.querySelector('#error');
    if (error) error.textContent = message;
    else this.root.querySelector('.sk')!.innerHTML = `<p class="error" role="alert" lang="${esc(this.language)}">${esc(message)}</p>`;
  }

  private fail(error: unknown): void {
    this.report(error instanceof ApiFailure ? error.problem : { code: 'network', message: error instanceof Error ? error.message : String(error), details: null });
  }

  private report(problem: { code: string; message: string; details: unknown }): void {
    this.showError(this.explain(problem));
    this.emit('staykit:error', problem);
  }

  /**
   * A refusal in the visitor's words: the widget's own sentence for the cases it knows, else the server's message
   * with its details once (the details of a rule list repeat the message as their first line).
   */
  private explain(problem: { code: string; message: string; details: unknown }): string {
    const own = { SK610: 'datesTaken', SK648: 'contactRequired', SK649: 'acceptTermsRequired', network: 'networkError', no_units: 'formInactive' } as const;
    if (problem.code in own) return this.t(own[problem.code as keyof typeof own]);
    // The key was revoked, or this page is no longer among its widget's origins (the dashboard's preview has no key).
    if (this.previewUnit === null && KEY_REFUSALS.has(problem.code)) return this.t('formInactive');
    const details = Array.isArray(problem.details) ? problem.details.join(' ') : typeof problem.details === 'string' ? problem.details : '';
    if (details === '') return problem.message;
    return details.includes(problem.message) ? details.replace(/\n/g, ' ') : `${problem.message} ${details.replace(/\n/g, ' ')}`;
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

if (!customElements.get('staykit-widget')) customElements.define('staykit-widget', StaykitWidget);

