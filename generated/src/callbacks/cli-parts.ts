// Copied by im-openapi from templates/runtime/callbacks/cli-parts.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The replaceable parts as the `im-callbacks` commands take them (`send` and `simulate` alike):
 * `--signature` names a ready scheme (`im-v1`, the default and an assumption; `standard-webhooks`)
 * or a module whose default export (or `signature` export) is a `CallbackSignatureScheme`;
 * `--hook-answer` a module whose default export (or `hookAnswer` export) is a `HookAnswerFormat`.
 * `IM_CALLBACK_SIGNATURE` / `IM_CALLBACK_HOOK_ANSWER` give them when the option is not.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assumedHookAnswer, checkHookAnswerFormat } from './decisions.js';
import type { HookAnswerFormat } from './decisions.js';
import { imSignatureV1, standardWebhooksSignature } from './signature-node.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { checkScheme } from './verify-core.js';

/** The ready schemes by their CLI name. */
export const READY_SCHEMES: Readonly<Record<string, CallbackSignatureScheme>> = {
  'im-v1': imSignatureV1,
  'standard-webhooks': standardWebhooksSignature,
};

/** A bad `--signature` / `--hook-answer`: the command prints it with its usage and exits 2. */
export class PartOptionError extends Error {}

async function fromModule(path: string, names: string[], what: string): Promise<unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (err) {
    throw new PartOptionError(
      `${what}: cannot load the module ${path} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  for (const name of names) if (mod[name] !== undefined) return mod[name];
  throw new PartOptionError(`${what}: the module ${path} exports neither ${names.join(' nor ')}`);
}

/** `--signature <im-v1 | standard-webhooks | module path>` (or IM_CALLBACK_SIGNATURE); default im-v1. */
export async function signatureOption(value: string | undefined): Promise<CallbackSignatureScheme> {
  const given = value ?? process.env.IM_CALLBACK_SIGNATURE;
  if (given === undefined || given === '') return imSignatureV1;
  const ready = READY_SCHEMES[given];
  if (ready) return ready;
  if (!/[/\\.]/.test(given))
    throw new PartOptionError(
      `--signature must be im-v1, standard-webhooks or the path of a module exporting a scheme; got ${given}`,
    );
  const scheme = await fromModule(given, ['default', 'signature'], '--signature');
  try {
    checkScheme(scheme);
  } catch (err) {
    throw new PartOptionError(`--signature ${given}: ${(err as Error).message}`);
  }
  return scheme;
}

/** `--hook-answer <module path>` (or IM_CALLBACK_HOOK_ANSWER); default the assumed `{"decision": …}` shape. */
export async function hookAnswerOption(value: string | undefined): Promise<HookAnswerFormat> {
  const given = value ?? process.env.IM_CALLBACK_HOOK_ANSWER;
  if (given === undefined || given === '') return assumedHookAnswer;
  const format = await fromModule(given, ['default', 'hookAnswer'], '--hook-answer');
  try {
    checkHookAnswerFormat(format);
  } catch (err) {
    throw new PartOptionError(`--hook-answer ${given}: ${(err as Error).message}`);
  }
  return format;
}

/** The help lines of both options, their text starting at `column` (send and simulate align theirs differently). */
export function partOptionsHelp(column: number): string {
  const entries: Array<[string, string[]]> = [
    [
      '--signature <s>',
      [
        'how requests are signed: im-v1 (default; ASSUMED, seed 001 does not',
        'show the algorithm: HMAC-SHA256 over timestamp.nonce.body, hex in',
        'X-IM-Signature), standard-webhooks (webhook-id, webhook-timestamp,',
        'webhook-signature; secret whsec_<base64>), or the path of a module',
        'whose default export is your own scheme { name, headers, sign, verify };',
        'IM_CALLBACK_SIGNATURE works too',
      ],
    ],
    [
      '--hook-answer <m>',
      [
        'module whose default export reads and writes hook answers',
        '{ name, encode, decode } (default: the ASSUMED {"decision": …} shape);',
        'IM_CALLBACK_HOOK_ANSWER works too',
      ],
    ],
  ];
  return entries
    .map(([flag, lines]) => lines.map((line, i) => `${(i === 0 ? `  ${flag}` : '').padEnd(column)}${line}`).join('\n'))
    .join('\n');
}
