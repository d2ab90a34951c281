/**
 * A booking's reply address (src/inbox/reply-address.ts) maps back to the booking whatever a mail system does to the
 * case of the address, and no other address does: another domain, another server's secret, a changed character.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { replyAddresses } from '../../src/inbox/reply-address.js';

const BOOKING = '3f2b8c4e-9d1a-4c3b-8e7f-0a1b2c3d4e5f';
const ours = replyAddresses('the server secret', 'Reply.Rentals.Example');

it('gives each booking a reply address of 48 characters before the domain that maps back to it, in any case', () => {
  const address = ours.forBooking(BOOKING);
  assert.match(address, /^reply\+[a-z2-7]{42}@reply\.rentals\.example$/);
  assert.ok(address.indexOf('@') <= 64, 'a local part RFC 5321 allows');
  assert.equal(ours.bookingOf(address), BOOKING);
  assert.equal(ours.bookingOf(address.toUpperCase()), BOOKING);
  assert.notEqual(ours.forBooking('3f2b8c4e-9d1a-4c3b-8e7f-0a1b2c3d4e60'), address);
});

it('maps no other address to a booking', () => {
  const address = ours.forBooking(BOOKING);
  const token = address.slice('reply+'.length, address.indexOf('@'));
  const changed = `reply+${token.slice(0, 10)}${token[10] === 'a' ? 'b' : 'a'}${token.slice(11)}@reply.rentals.example`;
  for (const other of [
    changed, address.replace('reply.rentals.example', 'rentals.example'), `info@reply.rentals.example`,
    replyAddresses('another secret', 'reply.rentals.example').forBooking(BOOKING), `reply+${token.slice(1)}@reply.rentals.example`,
    `reply+${token}0@reply.rentals.example`, '', 'reply+@reply.rentals.example',
  ]) {
    assert.equal(ours.bookingOf(other), undefined, other);
  }
});
