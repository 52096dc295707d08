/**
 * What the packed package's bytes are (issue 33: the size row explains a miss by profile): each
 * file of `npm pack` sorted into a part, the .d.ts files split into their doc comments (the hover
 * docs) and the declarations, and the rule or issue that asks for each part.
 */

export interface PackagePart {
  part: string;
  files: number;
  bytes: number;
  why: string;
}

/** `npm pack` of the built package: its size, files, the reach check and the bytes by part. */
export interface PackedTarball {
  size: number;
  unpackedSize: number;
  entryCount: number;
  orphans: string[];
  dangling: string[];
  /** The unpacked bytes by part; absent in results written before issue 33. */
  composition?: PackagePart[];
}

const PARTS: { part: string; why: string }[] = [
  {
    part: 'validators (dist/esm/validators/*.js)',
    why: 'the standard that bad input is refused naming the field and the rule before anything is sent (one lazy file per operation, loaded on its first call), and the response check of `validateResponses`',
  },
  {
    part: 'other JavaScript',
    why: 'the client runtime, callbacks, the testing fake and the im-callbacks CLI: not minified (readable stack traces; the app minifies), no doc comments',
  },
  {
    part: 'hover docs in the declarations (.d.ts doc comments)',
    why: "issue 31: each method (im.users.get) and each function (usersGet) says meaning, method and path, retry class, the assumptions, an example and the errors it throws; the service's fields are documented on the types",
  },
  { part: 'declarations (.d.ts without comments)', why: 'the types of every entry point' },
  {
    part: 'README.md, api.md, CHANGELOG.md',
    why: "the docs, with every x-assumed and x-not-documented mark (the brief: assumptions are said in the docs) and each entry's API",
  },
  {
    part: 'openapi.yaml',
    why: 'issue 27: the spec the package was generated from, the base of `generate --check --base npm:<version>`',
  },
  { part: 'package.json and any other file', why: 'npm' },
];

const DOC_COMMENT = /\/\*\*[\s\S]*?\*\//g;

/** The parts of a packed package, in PARTS order, from npm pack's file list and each file's text. */
export function packageComposition(
  files: readonly { path: string; size: number }[],
  read: (path: string) => string,
): PackagePart[] {
  const parts = new Map(PARTS.map((p) => [p.part, { ...p, files: 0, bytes: 0 }]));
  const add = (index: number, bytes: number, file = 1) => {
    const p = parts.get(PARTS[index]!.part)!;
    p.bytes += bytes;
    p.files += file;
  };
  for (const f of files) {
    if (f.path.endsWith('.d.ts')) {
      const docs = (read(f.path).match(DOC_COMMENT) ?? []).reduce((n, c) => n + Buffer.byteLength(c), 0);
      add(2, docs, docs > 0 ? 1 : 0);
      add(3, f.size - docs);
    } else if (/^dist\/esm\/validators\/[^/]+\.js$/.test(f.path)) add(0, f.size);
    else if (f.path.endsWith('.js')) add(1, f.size);
    else if (/^(README|api|CHANGELOG)\.md$/.test(f.path)) add(4, f.size);
    else if (f.path === 'openapi.yaml') add(5, f.size);
    else add(6, f.size);
  }
  return [...parts.values()].filter((p) => p.bytes > 0);
}
