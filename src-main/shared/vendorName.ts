// What an upstream's name (its vendor slug) may be, for the config, the control contract, import and the
// window alike. Slugs become name prefixes (`vendor__tool`), so they are short and unambiguous.

export const VENDOR_MAX_LENGTH = 32;
export const VENDOR_PATTERN = new RegExp(`^[a-z0-9][a-z0-9-]{0,${VENDOR_MAX_LENGTH - 1}}$`);
/** The rule in words, as refusals say it. */
export const VENDOR_RULE_WORDS = `lowercase letters, digits and dashes, up to ${VENDOR_MAX_LENGTH}`;
