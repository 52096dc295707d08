/**
 * The next version of im-server-sdk from the change report's bump, as release-please counts
 * before 1.0: a breaking change bumps the minor and an addition the patch (`^0.1.0` users get
 * additions, never breaks), both configurable (release.config.json); 1.0.0 only when asked
 * (`--graduate`). Prereleases (`--preid rc`): `1.3.0-rc.0`, `1.3.0-rc.1`, …; a prerelease that
 * already covers the bump is promoted (`2.0.0-rc.1` + major → `2.0.0`, never `3.0.0`).
 */
export type Bump = 'major' | 'minor' | 'patch';

export interface VersionRules {
  /** Before 1.0: what a breaking change bumps (release-please's bump-minor-pre-major: minor). */
  preMajorBreaking: 'major' | 'minor';
  /** Before 1.0: what an addition bumps (release-please's bump-patch-for-minor-pre-major: patch). */
  preMajorAddition: 'minor' | 'patch';
}

export const DEFAULT_RULES: VersionRules = { preMajorBreaking: 'minor', preMajorAddition: 'patch' };

export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** `rc.1` → ['rc', 1]; [] for a release. */
  pre: (string | number)[];
}

export function parseVersion(text: string): Version {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!m) throw new Error(`version ${JSON.stringify(text)} is not semver (x.y.z or x.y.z-pre.n)`);
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre };
}

export const formatVersion = (v: Version) =>
  `${v.major}.${v.minor}.${v.patch}${v.pre.length ? `-${v.pre.join('.')}` : ''}`;

/** The bump that a report's bump means for this version (before 1.0 the rules map it down). */
export function effectiveBump(version: string, bump: Bump, rules: VersionRules = DEFAULT_RULES): Bump {
  if (parseVersion(version).major > 0) return bump;
  if (bump === 'major') return rules.preMajorBreaking;
  if (bump === 'minor') return rules.preMajorAddition;
  return 'patch';
}

export interface NextOptions {
  rules?: VersionRules;
  /** Start or continue a prerelease channel (`rc`, `beta`): the npm dist-tag too. */
  preid?: string;
  /** From 0.x to 1.0.0 (a decision, never a side effect of a breaking change). */
  graduate?: boolean;
}

export function nextVersion(version: string, bump: Bump, options: NextOptions = {}): string {
  const v = parseVersion(version);
  const preid = options.preid;
  if (preid !== undefined && !/^[A-Za-z][0-9A-Za-z-]*$/.test(preid))
    throw new Error(
      `--preid ${JSON.stringify(preid)}: use letters, digits and dashes, starting with a letter (rc, beta, next)`,
    );
  if (options.graduate) {
    if (v.major > 0) throw new Error(`--graduate: ${version} is already 1.0.0 or later`);
    return withPre({ major: 1, minor: 0, patch: 0, pre: [] }, v, preid);
  }
  const b = effectiveBump(version, bump, options.rules);
  if (v.pre.length) {
    // X.Y.Z-pre is the coming X.Y.Z: it covers a patch; a minor when Z = 0; a major when Y = Z = 0
    const covered =
      b === 'patch' || (b === 'minor' && v.patch === 0) || (b === 'major' && v.minor === 0 && v.patch === 0);
    const release = { major: v.major, minor: v.minor, patch: v.patch, pre: [] };
    if (covered) return withPre(release, v, preid);
    return withPre(bumped(release, b), { ...release }, preid);
  }
  return withPre(bumped(v, b), v, preid);
}

function bumped(v: Version, b: Bump): Version {
  if (b === 'major') return { major: v.major + 1, minor: 0, patch: 0, pre: [] };
  if (b === 'minor') return { major: v.major, minor: v.minor + 1, patch: 0, pre: [] };
  return { major: v.major, minor: v.minor, patch: v.patch + 1, pre: [] };
}

/** `target` as a release, or its next prerelease on channel `preid` (counting on from `from`'s). */
function withPre(target: Version, from: Version, preid: string | undefined): string {
  if (preid === undefined) return formatVersion(target);
  const same =
    from.major === target.major &&
    from.minor === target.minor &&
    from.patch === target.patch &&
    from.pre[0] === preid &&
    typeof from.pre[1] === 'number';
  return formatVersion({ ...target, pre: [preid, same ? (from.pre[1] as number) + 1 : 0] });
}

/** The npm dist-tag a version is published under: its prerelease channel, else `latest`. */
export function distTag(version: string): string {
  const pre = parseVersion(version).pre;
  return pre.length ? String(pre[0]) : 'latest';
}
