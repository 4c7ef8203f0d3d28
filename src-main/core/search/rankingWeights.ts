// The weights and bounds of BM25F ranking (index.ts), each with its reason. How each was chosen,
// with the figures on the tuning sets and on the sets kept apart, is in docs/research/search.md
// ("The ranking's weights").

/** Fields, in index order: name, title, parameter names, parameter descriptions, description, backend. */
export const FIELDS = 6;
/** A slice of a deferred build (SearchIndex.buildFor): this many tools, or this many terms: a few ms each. */
export const BUILD_SLICE_TOOLS = 16;
export const BUILD_SLICE_TERMS = 512;
/** And this many postings, once every tool's words are counted. */
export const BUILD_SLICE_POSTINGS = 8192;
/**
 * How much a match in each field counts. Names say most about what a tool does, but not so much that
 * one common name word ("what", "get") outweighs a description; the backend prefix (`calendar` in
 * `calendar_create_event`) is kept apart, since every tool of a backend shares it. Parameter
 * descriptions count little: they describe the inputs ("the repository owner"), so their words match
 * many tools that only take such an input.
 */
export const FIELD_WEIGHTS = [2.0, 1.2, 1.0, 0.35, 0.9, 1.0] as const;
/** Length normalization per field: names are short and even, descriptions vary. */
export const FIELD_B = [0.3, 0.3, 0.5, 0.75, 0.75, 0] as const;
export const K1 = 1.2;
/** Descriptions are indexed up to here: a bound on work, long enough that real descriptions keep their point. */
export const DESCRIPTION_CHARS = 2000;
/** Parameter descriptions are indexed in full up to this length (a bound, not a cut that matters). */
export const PARAM_DESCRIPTION_CHARS = 2000;
/** Weight of a typo-corrected word, and of the secondary words a path or URL implies. */
export const TYPO_WEIGHT = 0.85;
export const IMPLIED_WEIGHT = 0.5;
/** Multiplier when the tool's name covers every word of the query (directly or by synonym). */
export const FULL_NAME_COVER_BONUS = 0.6;
/**
 * Coordination: a tool's score is scaled by (1 − C) + C × (share of the query's words it matches), so
 * a tool that answers every part of a request beats one that matches one rare word many times.
 */
export const COORDINATION = 0.5;
/**
 * Multiplier for the tools of a backend the query names ("make a new github repo"): people name the
 * service they mean, and a tool of another service that matches the rest better is not what they asked.
 */
export const NAMED_BACKEND_BONUS = 0.5;
/**
 * A synonym's or typo correction's idf is at most this share of the rarest other query word found as
 * written (and at most the word's own): evidence derived from one word must not outweigh another word
 * the user wrote.
 */
export const DERIVED_SHARE = 1;
/** A query word's best alternative counts fully; each further alternative that also matches adds this share. */
export const EXTRA_ALT_SHARE = 0.3;
/** Tokens that look like a file path or a URL say which parameter the user has in mind. */
export const PATH_LIKE = /^[\w.-]*\/[\w./-]*$|^[\w-]+\.[a-z][a-z0-9]{0,4}$/i;
export const URL_LIKE = /^[a-z]+:\/\/\S+$|^www\.\S+$/i;
/** Query words this long that mix letters and digits are ids, hashes or keys: they name no tool. */
export const OPAQUE_MIN_CHARS = 10;
/**
 * How much a learned word (a query word that led agents to a tool) counts, as a field of that tool,
 * with words trusted only once they recur (learning.ts CONFIDENCE_SCALE).
 */
export const LEARNED_WEIGHT = 1.0;
/**
 * Learned evidence for a query word is scaled by (the word's idf in the catalog / the idf of a word no
 * tool uses) to this power: learning fills the vocabulary the tools' own text lacks ("buy", "ticket",
 * "checkpoint"), while a word the catalog already ranks by ("find", "file") moves little.
 */
export const LEARNED_GAP_POWER = 2;
