/** `x-answer` on a callbacks reply: what the receiver must answer (build-delivery-rules.ts reads receiveVerify's). */
import { defineExtension } from './extension.js';

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
