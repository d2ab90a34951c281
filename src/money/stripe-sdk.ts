/**
 * The `stripe` package, imported the first time a payment needs it rather than when the server starts: the SDK is
 * ~3 MiB of heap and 0.1 s of CPU that a server without STAYKIT_SECRET_KEY, or one that never takes a card, never
 * uses. Every module of src/money gets it from here, so all of them see the same error classes.
 */
import type Stripe from 'stripe';

let loading: Promise<typeof Stripe> | undefined;

export function loadStripe(): Promise<typeof Stripe> {
  loading ??= import('stripe').then((module) => module.default);
  return loading;
}
