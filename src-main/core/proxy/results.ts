// Shaping what goes back to agents: upstream `_meta` scrubbing (shared with passthrough, in core/protocol.ts).
export { stripProtocolMeta } from '../protocol.js';
