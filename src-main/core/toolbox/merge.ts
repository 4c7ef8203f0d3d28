// The merged toolbox: every upstream's last-good tools under one set of exposed names. The catalog
// (upstream/) keeps each vendor's list; this builds the one lookup the rest of the core shares.
import type { Tool } from '@modelcontextprotocol/client';
import type { Catalog } from '../upstream/catalog.js';
import { Toolbox, type HiddenTools } from './toolbox.js';

/**
 * Each vendor's tools, in config order; a vendor that has not listed yet (`tools` undefined) is left out,
 * and the tools the user hid are kept apart (Toolbox.hidden).
 */
export function buildToolbox(
  state: ReadonlyMap<string, { tools: readonly Tool[] | undefined }>,
  prefixNames: boolean,
  hidden: HiddenTools = {},
): Toolbox {
  const catalogs = new Map<string, readonly Tool[]>();
  for (const [vendor, s] of state) if (s.tools) catalogs.set(vendor, s.tools);
  return new Toolbox(catalogs, prefixNames, hidden);
}

/** The catalog as the layers above see it: each vendor's lists, merged into one Toolbox. */
export type ToolboxCatalog = Catalog<Toolbox>;
