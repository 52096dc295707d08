/**
 * What the node transport is given (internal, unstable): its options, the agent options of its
 * default keep-alive agent, and what a proxy tunnel learns of each attempt.
 */
import type * as Http from 'node:http';
import type { Builtins } from './node-builtins.js';

/**
 * What a proxy tunnel's `createConnection` learns of the attempt it opens a tunnel for, handed in
 * the request options under this symbol (Node copies them through the agent): the CONNECT gets
 * no longer than the attempt's timeout and is destroyed when the attempt ends first.
 */
export const TUNNEL_ATTEMPT: unique symbol = Symbol('im-openapi.tunnel-attempt');
export interface TunnelAttempt {
  /** The attempt's timeout in ms. */
  timeoutMs: number;
  /** Calls `onEnd` once when the attempt settles (at once if it has). */
  onEnd(onEnd: () => void): void;
}

/** An agent as the node transport takes it: an `http.Agent` or `https.Agent` (or a subclass, e.g. a proxy agent). */
export type NodeAgent = Http.Agent;

export interface NodeTransportOptions {
  /** The base URL's origin: every request goes there. */
  origin: string;
  /** The user's agent; default: one keep-alive agent of this client. */
  agent?: NodeAgent | undefined;
  /** Builds the default agent instead (the proxy tunnel does) from these agent options. */
  makeAgent?: ((b: Builtins, secure: boolean, agentOptions: Http.AgentOptions) => NodeAgent) | undefined;
  /** Idle time after which the default agent drops a pooled socket (default IDLE_MS; tests shorten it). */
  idleMs?: number | undefined;
}

/**
 * The default agent's options: keep-alive, idle sockets dropped after 4 s (under the 5 s that
 * Node servers keep them, so a reused socket is rarely one the server is closing), most
 * recently used socket first (the others may idle out).
 */
export const AGENT_OPTIONS: Http.AgentOptions = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' };
export const IDLE_MS = 4_000;
/** The same for the default agent, whose idle drop is its own (idle-drop-agent.ts: no per-request timeout work). */
export const DEFAULT_AGENT_OPTIONS: Http.AgentOptions = { keepAlive: true, scheduling: 'lifo' };
