/** `x-answer` on a callbacks reply: what the receiver must answer (build-delivery-rules.ts reads receiveVerify's). */
import { readSpecValue, type SpecValue } from '../spec-value.js';
import { defineExtension } from './extension.js';

/** A number of the `x-answer` of the verification reply (receiveVerify), by its path. */
export function verifyAnswerReader(doc: any, source: string): (path: string) => SpecValue<number> {
  const answer = doc?.operations?.receiveVerify?.reply?.['x-answer'];
  return (path) =>
    readSpecValue<number>(
      source,
      answer,
      'operations.receiveVerify.reply.x-answer',
      '/operations/receiveVerify/reply/x-answer',
      path,
      'number',
    );
}

export const answer = defineExtension({
  name: 'x-answer',
  place: 'callbacks',
  readme: {
    where: 'callbacks reply',
    meaning:
      'on a reply: the answer the service expects (status, time, size); the verification ' +
      "reply's is read into the delivery simulator",
  },
  schema: { type: 'object' },
});
