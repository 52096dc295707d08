/**
 * What the fake does where the seeds show nothing: each choice, stated once here and in the
 * package README ("Testing your code"; a test keeps the two together). Where the spec itself
 * chose (an `x-assumed` mark), the fake follows the spec.
 */
export interface FakeAssumption {
  topic: string;
  choice: string;
}

export const FAKE_ASSUMPTIONS: readonly FakeAssumption[] = [
  {
    topic: 'error statuses',
    choice:
      'already_exists and version_conflict answer 409, not_found 404 (the seed names these codes without a status); a fault of kind server_error answers 503 with code unavailable; a path that names no operation answers 404 not_found',
  },
  {
    topic: 'resource ids',
    choice:
      "a resource carries its id under the name of the path parameter that addresses it (username, group_id, room_id, message_id, conversation_id, file_id, list_id, channel_id, call_id, session_id), as the spec chose for UploadSession.file_id; moderation items use the spec's id and version; new ids read <kind>-<n> (group-1, msg-1, …)",
  },
  {
    topic: 'message params',
    choice:
      "messages.send reads from, to and chat_type (single, the default, or group with to = group_id), the names of the package's examples; every other field is kept as given. A send without to is stored in no conversation",
  },
  {
    topic: 'sequence numbers',
    choice:
      'each conversation numbers its messages 1, 2, 3, …; conversations.messages pages them in that order; around_seq starts the page half a page before that number',
  },
  {
    topic: 'pages',
    choice:
      'pageSize items a page (default 20; moderation.items takes limit); cursors are opaque strings of the fake; next_cursor is null on the last page; versioned pages carry version (a string) that moves on every write; known_version is accepted and does not change the answer',
  },
  {
    topic: 'friends',
    choice:
      "friends.add adds the friend to the owner's list only (one direction); friends.check answers items of { username, is_friend }",
  },
  {
    topic: 'group members',
    choice:
      'the owner is a member with role admin; members of groups.create join with joined_via create (the one value the seed gives); other joins carry no joined_via, inviter or operator',
  },
  {
    topic: 'moderation',
    choice:
      'a decided or escalated item loses its status (the spec lists pending and auto_violation only) and gets decided_at or escalated_at, and its version moves on; a decision on it answers version_conflict; moderation.report makes a pending item; check_text matches the words of the word lists',
  },
  {
    topic: 'RTC channels',
    choice:
      'close and member removal finish at once (200, never 202 pending); issue_tickets makes one ticket per username in usernames',
  },
  {
    topic: 'event types',
    choice:
      "message.sent, message.recalled and message.edited for messages (the seed names the message family, not its types; named after chatroom.message_sent); the other events use the callbacks spec's names; users, calls, moderation and files send no events",
  },
  {
    topic: 'event data',
    choice:
      'data starts with origin server and holds the changed resource as the fake answers it (ids, usernames, versions); group.members_added and friend.added carry their version fields',
  },
  {
    topic: 'callback addresses',
    choice:
      'given as an option or with fake.callbacks.register (the seed configures them in the console; there is no REST operation); loopback http is accepted (the service would require https and a public host)',
  },
  {
    topic: 'tokens',
    choice:
      "App Tokens are random strings valid tokenTtlSeconds on the fake's clock; application in the token answer is org#app",
  },
  {
    topic: 'stateless operations',
    choice:
      "operations whose changes the REST API cannot cause (calls, presence, statistics, usage) answer what was seeded, or the spec's example of their response",
  },
];
