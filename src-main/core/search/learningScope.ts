// Whose learned evidence an agent's search may use. Agents with tokens are a boundary the user drew:
// what one agent searched for and called must not move another agent's ranking across it
// (searches on the open /mcp could otherwise lift a tool to the top of a token-protected agent's ranking).
// Pure decisions only; the evidence (learnedEvidence.ts) and any other learned signal (query vectors)
// apply them.

/** What the rule needs to know of the config. */
export type LearningPolicyInput = {
  agents: ReadonlyArray<{ id: string; token?: string | undefined }>;
  /** `search.shareLearning`: undefined is the default (share only while no agent has a token). */
  shareLearning?: boolean | undefined;
};

export type LearningPolicy = {
  /** Whether agents learn from each other at all. */
  share: boolean;
  /** The agents behind a token; every other agent id (the default one, unknown ids) is open. */
  tokened: ReadonlySet<string>;
  /** Names the policy (equal keys: equal policies), for ranking caches. */
  key: string;
};

/**
 * Whose pairs count for an agent: `everyone`, or only the owners `includes` accepts. `key` names the
 * scope (equal keys: equal scopes), for caches.
 */
export type EvidenceScope = { everyone: true; key: string } | { everyone: false; key: string; includes: (owner: string) => boolean };

/**
 * Policies already worked out, per agents list: search asks for the policy several times a search,
 * and a config edit replaces the list (the validated config is new), so one per list is enough.
 */
const made = new WeakMap<object, Map<string, LearningPolicy>>();

export function learningPolicy(input: LearningPolicyInput): LearningPolicy {
  const shareKey = String(input.shareLearning);
  let byShare = made.get(input.agents);
  const hit = byShare?.get(shareKey);
  // The list's length is checked too: a list grown in place is a different list of agents.
  if (hit && hit.key.endsWith(`#${input.agents.length}`)) return hit;
  const tokened = new Set(input.agents.filter((a) => a.token !== undefined && a.token !== '').map((a) => a.id));
  // With tokens in use, sharing is the user's explicit choice; without, every agent is one user's.
  const share = input.shareLearning ?? tokened.size === 0;
  const policy = { share, tokened, key: `${share ? 1 : 0}:${[...tokened].sort().join(',')}#${input.agents.length}` };
  if (!byShare) made.set(input.agents, (byShare = new Map()));
  byShare.set(shareKey, policy);
  return policy;
}

/**
 * Whether `reader`'s search may use what `owner`'s searches and calls taught. Its own always; others'
 * only when sharing is on, and then only within one side of the token line: an agent without a token
 * (which anyone on the machine can drive) never teaches one with a token, and an agent behind a token
 * never shows through the open endpoint what it searched for.
 */
export function mayLearnFrom(reader: string, owner: string, policy: LearningPolicy): boolean {
  if (reader === owner) return true;
  if (!policy.share) return false;
  return policy.tokened.has(reader) === policy.tokened.has(owner);
}

/** `mayLearnFrom` for one reader, as a scope; undefined reader: the view over every agent (the window's). */
export function evidenceScope(reader: string | undefined, policy: LearningPolicy): EvidenceScope {
  if (reader === undefined) return { everyone: true, key: '*' };
  if (!policy.share) return { everyone: false, key: `own:${reader}`, includes: (owner) => owner === reader };
  if (policy.tokened.size === 0) return { everyone: true, key: '*' };
  const side = policy.tokened.has(reader);
  return {
    everyone: false,
    // The side's members are part of the key: a token added or removed changes the scope.
    key: `${side ? 'tokened' : 'open'}:${[...policy.tokened].sort().join(',')}`,
    includes: (owner) => mayLearnFrom(reader, owner, policy),
  };
}
