// Copied by im-openapi from templates/runtime/testing/state/state.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The fake's state: one collection per resource the seed names, holding the JSON the fake
 * answers. Field names the spec does not give are the fake's (FAKE_ASSUMPTIONS in
 * assumptions.ts): a resource carries its id under the name of the path parameter that addresses
 * it (`username`, `group_id`, `room_id`, `message_id`, …), as the spec itself chose for
 * `UploadSession.file_id`.
 */

/** A JSON object as the fake stores and answers it. */
export type Json = Record<string, any>;

/** A list the seed calls versioned (friends, blacklist, group members, push mutes): every write moves its version. */
export class VersionedList<V extends Json = Json> {
  version = 1;
  readonly items = new Map<string, V>();

  set(key: string, value: V): void {
    this.items.set(key, value);
    this.version++;
  }

  delete(key: string): boolean {
    const had = this.items.delete(key);
    if (had) this.version++;
    return had;
  }

  clear(): number {
    const n = this.items.size;
    if (n > 0) {
      this.items.clear();
      this.version++;
    }
    return n;
  }

  values(): V[] {
    return [...this.items.values()];
  }
}

export interface ChatroomRecord {
  room: Json;
  members: Map<string, Json>;
  admins: Set<string>;
  allowlist: Map<string, Json>;
  bans: Map<string, Json>;
  mutes: Map<string, Json>;
  attributes: Map<string, string>;
  messages: Json[];
}

export interface ConversationRecord {
  info: Json;
  /** Usernames of the participants (a group conversation: the members when messages were sent). */
  members: Set<string>;
  /** message_id of each sequence number, in order. */
  messageIds: string[];
  pins: string[];
  lastSeq: number;
}

export interface UploadRecord {
  session: Json;
  /** part number → size and bytes (bytes dropped when keepUploadBytes is false). */
  parts: Map<number, { size: number; bytes?: Uint8Array }>;
  /** The token that part upload addresses of this upload carry. */
  partToken: string;
}

export interface RtcChannelRecord {
  channel: Json;
  bans: Map<string, Json>;
  sessions: Json[];
  tickets: Json[];
  /** operation_id values already applied (removal, revocation): a repeat is answered the same. */
  operations: Map<string, Json>;
}

export interface ModerationState {
  config: Json;
  items: Map<string, Json>;
  contents: Map<string, Json>;
  wordLists: Map<string, { list: Json; words: Set<string> }>;
  violations: Map<string, Json[]>;
  platformActions: Json[];
}

export class FakeState {
  readonly users = new Map<string, Json>();
  /** username → session records (`session_id`, …); seeded, or made by `users.issue_login_ticket`. */
  readonly sessions = new Map<string, Json[]>();
  readonly userMutes = new Map<string, Map<string, Json>>();
  readonly friends = new Map<string, VersionedList>();
  readonly friendSettings = new Map<string, Json>();
  readonly friendRequests = new Map<string, Json[]>();
  readonly blacklists = new Map<string, VersionedList>();
  readonly groups = new Map<string, Json>();
  readonly groupMembers = new Map<string, VersionedList>();
  readonly groupBlacklists = new Map<string, Map<string, Json>>();
  readonly groupRequests = new Map<string, Json[]>();
  readonly groupInviteSettings = new Map<string, Json>();
  readonly chatrooms = new Map<string, ChatroomRecord>();
  readonly conversations = new Map<string, ConversationRecord>();
  readonly messages = new Map<string, Json>();
  /** Dedupe: `client_msg_id` (and recipient, for batches) → message_id. */
  readonly sentKeys = new Map<string, string>();
  /** `${username}\u0000${conversation_id}` → that user's view: read_seq, cleared_seq, deleted_seqs, hidden. */
  readonly userConversations = new Map<string, Json>();
  readonly uploads = new Map<string, UploadRecord>();
  readonly files = new Map<string, Json>();
  /** The bytes of completed uploads (file_id → content), unless keepUploadBytes is false. */
  readonly fileContents = new Map<string, Uint8Array>();
  readonly pushSettings = new Map<string, Json>();
  readonly pushMutes = new Map<string, VersionedList>();
  readonly pushDevices = new Map<string, Json[]>();
  readonly moderation: ModerationState = {
    config: {},
    items: new Map(),
    contents: new Map(),
    wordLists: new Map(),
    violations: new Map(),
    platformActions: [],
  };
  readonly rtcChannels = new Map<string, RtcChannelRecord>();
  readonly calls = new Map<string, Json>();
  readonly presence = new Map<string, Json>();
  private readonly counters = new Map<string, number>();

  /** A new id: `<prefix>-1`, `<prefix>-2`, … (each prefix counts on its own). */
  newId(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}-${n}`;
  }

  /** The versioned list of `owner` in `lists`, made empty on first use. */
  listOf(lists: Map<string, VersionedList>, owner: string): VersionedList {
    let list = lists.get(owner);
    if (!list) {
      list = new VersionedList();
      lists.set(owner, list);
    }
    return list;
  }
}

/** What `fake.seed(...)` and `initialState` take: each entry as the fake would answer it, ids optional where the fake makes them. */
export interface SeedInput {
  users?: ReadonlyArray<{ username: string } & Json>;
  /** owner → friend usernames (or friend records with `username`). */
  friends?: Readonly<Record<string, ReadonlyArray<string | ({ username: string } & Json)>>>;
  blacklists?: Readonly<Record<string, readonly string[]>>;
  friendRequests?: Readonly<Record<string, readonly Json[]>>;
  groups?: ReadonlyArray<{ owner: string; group_id?: string; members?: readonly string[] } & Json>;
  groupRequests?: Readonly<Record<string, readonly Json[]>>;
  /** Chatrooms with their members and messages (the REST API adds no member: clients join). */
  chatrooms?: ReadonlyArray<
    { name: string; room_id?: string; owner?: string; members?: readonly string[]; messages?: readonly Json[] } & Json
  >;
  /** Messages as `messages.send` takes them (`from`, `to`, `chat_type`, …; `message_id`, and `conversation_id` for a new conversation, optional). */
  messages?: readonly Json[];
  /** Sessions of users (`session_id` optional). */
  sessions?: Readonly<Record<string, readonly Json[]>>;
  pushDevices?: Readonly<Record<string, readonly Json[]>>;
  /** Moderation items waiting for a decision (`id`, `version`, `status` default pending, `scene` default message). */
  moderationItems?: readonly Json[];
  wordLists?: ReadonlyArray<{ name: string; list_id?: string; words?: readonly string[] } & Json>;
  violations?: Readonly<Record<string, readonly Json[]>>;
  platformActions?: readonly Json[];
  /** Uploads in progress (`file_id` optional; `parts` the part numbers already received). */
  uploads?: ReadonlyArray<{ file_id?: string; parts?: readonly number[] } & Json>;
  files?: ReadonlyArray<{ file_id?: string } & Json>;
  rtcChannels?: ReadonlyArray<
    { channel_id: string; bans?: readonly ({ username: string } & Json)[]; sessions?: readonly Json[] } & Json
  >;
  calls?: ReadonlyArray<{ call_id?: string } & Json>;
  presence?: Readonly<Record<string, Json>>;
}
