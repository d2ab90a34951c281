/** Input patterns checked in more than one place, so every place accepts exactly the same values. */

/** A UUID in its canonical 8-4-4-4-12 hexadecimal form, either case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An e-mail address as far as a form can tell: something, `@`, a domain with a dot, no spaces. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
