// Copied by im-openapi from templates/runtime/testing/ops/index.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The operations the fake keeps state for, by operation id. Every other operation of the
 * catalog answers the generated sample of its response schema (stateless).
 */
import { chatroomHandlers } from './chatrooms.js';
import type { OpHandler } from './context.js';
import { conversationHandlers } from './conversations.js';
import { groupHandlers } from './groups.js';
import { mediaHandlers } from './media.js';
import { messageHandlers } from './messages.js';
import { moderationHandlers } from './moderation.js';
import { pushAndCallHandlers } from './push-calls.js';
import { rtcHandlers } from './rtc.js';
import { socialHandlers } from './social.js';
import { userHandlers } from './users.js';

export const STATEFUL_HANDLERS: Readonly<Record<string, OpHandler>> = {
  ...userHandlers,
  ...socialHandlers,
  ...groupHandlers,
  ...chatroomHandlers,
  ...messageHandlers,
  ...conversationHandlers,
  ...mediaHandlers,
  ...moderationHandlers,
  ...rtcHandlers,
  ...pushAndCallHandlers,
};
