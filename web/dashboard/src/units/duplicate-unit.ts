/**
 * Duplicating a unit through the API, for a manager with many similar flats: a new product (POST /v1/create-product)
 * with the original's settings, photos and cancellation policy, named "… (copy)" in each name's own language, then copies of its configurations,
 * capacities, extras (the same services linked) and tasks. Bookings, per-date prices and iCal links are the
 * original's own and are not copied.
 */
import i18next from 'i18next';
import { database, rowsOf } from '../api/database';
import { requestJson } from '../api/http';
import { CONFIGURATION_SELECT } from './configuration-form';
import { DETAILS_SELECT } from './unit-details';

/** What a copy takes over: everything a manager sets on a unit (the details, and the rest create-product accepts). */
const COPIED = `${DETAILS_SELECT},images,cancellation_policy,confirmation_message,approximate_coordinates,exact_coordinates,cta,cooldown_time,price_breakdown_specificity,rent_pricing_definition,request_status,confirm_after_initial_payment,cancel_after_initial_payment_error,pricelabs_enabled` as const;

export async function duplicateUnit(unitId: string): Promise<string> {
  const original = withoutId(rowsOf(await database.from('products').select(COPIED).eq('id', unitId).single()));
  const name = Object.fromEntries(Object.entries(original.name).map(([language, text]) => [language, copyName(language, text)]));
  const copy = await requestJson<{ id: string }>('POST', '/v1/create-product', { ...original, name });
  const productId = copy.id;

  const configurations = rowsOf(await database.from('product_configurations').select(CONFIGURATION_SELECT).eq('product_id', unitId));
  if (configurations.length > 0) {
    rowsOf(await database.from('product_configurations').insert(configurations.map((row) => ({ ...withoutId(row), product_id: productId }))));
  }
  const capacities = rowsOf(await database.from('capacities').select('capacity_group_id,min,max').eq('product_id', unitId));
  if (capacities.length > 0) rowsOf(await database.from('capacities').insert(capacities.map((row) => ({ ...row, product_id: productId }))));
  const services = rowsOf(await database.from('product_services').select('service_id,order').eq('product_id', unitId));
  if (services.length > 0) rowsOf(await database.from('product_services').insert(services.map((row) => ({ ...row, product_id: productId }))));
  const tasks = rowsOf(await database.from('product_tasks').select('task_template_id,assignee_id,label,schedule,offset_minutes,active').eq('product_id', unitId));
  if (tasks.length > 0) rowsOf(await database.from('product_tasks').insert(tasks.map((row) => ({ ...row, product_id: productId }))));
  return productId;
}

/** `default` is the English text; a language the dashboard does not speak gets the English word. */
const copyName = (language: string, name: string) =>
  i18next.getFixedT(language === 'default' ? 'en' : language, 'units')('actions.copyName', { name });

const withoutId = <Row extends { id: string }>({ id: _id, ...rest }: Row): Omit<Row, 'id'> => rest;
