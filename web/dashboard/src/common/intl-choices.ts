/** The time zones and currencies the browser knows (IANA, ISO 4217): the choices of every unit and organization form. */
export const TIME_ZONES = Intl.supportedValuesOf('timeZone');
export const CURRENCIES = Intl.supportedValuesOf('currency');
