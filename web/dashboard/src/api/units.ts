/** The organization's units (not deleted) by id and name, oldest first: what a unit filter or picker offers. */
import { database, rowsOf } from './database';

export const loadUnitNames = async () => rowsOf(await database.from('products').select('id,name').is('deleted_at', null).order('created_at'));

export type UnitName = Awaited<ReturnType<typeof loadUnitNames>>[number];
