/**
 * The `stripe` package, imported the first time a payment needs it rather than when the server starts: importing it
 * alone grows a bare Node process by ~20 MiB and takes 0.1 s of CPU, which a server without STAYKIT_SECRET_KEY, or
 * one that never takes a card, never needs. Every module of src/money gets it from here, so all of them see the
 * same error classes.
 */
import type Stripe from 'stripe';

let loading: Promise<typeof Stripe> | undefined;

export function loadStripe(): Promise<typeof Stripe> {
  loading ??= import('stripe').then((module) => module.default);
  return loading;
}
