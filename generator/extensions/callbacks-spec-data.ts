/**
 * Extensions of the callbacks spec that the generator does not read: machine-readable facts for
 * the callbacks kit and for readers (address settings, URL rules, states, signature scheme…).
 * Checked by name and kind of value only, so one module holds them all.
 */
import { defineExtension, type Extension } from './extension.js';

const data = (name: `x-${string}`, type: 'object' | 'array' | 'string', meaning: string): Extension =>
  defineExtension({ name, place: 'callbacks', readme: { where: 'callbacks spec', meaning }, schema: { type } });

export const callbacksSpecData: Extension[] = [
  data('x-address-settings', 'object', 'the settings of callback addresses (how many, what each has of its own)'),
  data('x-url-rules', 'object', 'the rules a callback URL must follow'),
  data('x-states', 'object', 'the states of an address and what each means for deliveries'),
  data('x-signature', 'object', 'the signature scheme of callback requests'),
  data('x-verify', 'object', 'when and how the service verifies an address URL'),
  data('x-hook', 'object', 'the rules of synchronous hooks (requests per operation, retries)'),
  data('x-truncation', 'object', 'how large events are truncated (size limit, dropped and kept fields)'),
  data('x-event-families', 'array', 'the event families and what each covers'),
  data('x-event-prefixes', 'array', 'the event type prefixes and what each covers'),
  data('x-service-conditions', 'array', 'service conditions (a suspended tenant…) and their effect on callbacks'),
  data('x-delivery-records', 'array', 'the delivery records the service keeps, and for how long'),
  data('x-source', 'string', 'the seed document the callbacks spec is written from'),
];
