// The bounds the schema sets for one config field (a number's range, a text's length, the words
// allowed), read from the JSON Schema it publishes. A refusal carries them in its data, so the window's
// sentence ("a whole number from 1 to 500") says what the validation checks and changes with it.
import { z } from 'zod';
import { configFileSchema } from './configSchema.js';

export type FieldRules = { min?: number; max?: number; maxLength?: number; values?: string[] };

type Node = {
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  items?: Node;
  anyOf?: Node[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  enum?: unknown[];
};

let published: Node | undefined;
/** The config file's JSON Schema (as config.schema.json has it), made once. */
export const configJsonSchema = (): Record<string, unknown> => z.toJSONSchema(configFileSchema, { io: 'input', target: 'draft-2020-12' });

/** The schema of the field at `path` (['agents', 0, 'cap']): a union (an upstream) is entered by the branch that declares the next key. */
function nodeAt(path: ReadonlyArray<PropertyKey>): Node | undefined {
  let node: Node | undefined = (published ??= configJsonSchema() as Node);
  for (const key of path) {
    if (!node) return undefined;
    const branches: Node[] = node.anyOf ?? [node];
    if (typeof key === 'number') node = branches.find((b) => b.items)?.items;
    else {
      const k = String(key);
      const owner = branches.find((b) => b.properties && Object.hasOwn(b.properties, k));
      if (owner) node = owner.properties![k];
      else {
        const rest = branches.find((b) => typeof b.additionalProperties === 'object')?.additionalProperties;
        node = typeof rest === 'object' ? rest : undefined;
      }
    }
  }
  return node;
}

/** The field's bounds; empty for a field that sets none, or a path the schema does not know. */
export function fieldRules(path: ReadonlyArray<PropertyKey>): FieldRules {
  const n = nodeAt(path);
  if (!n) return {};
  const values = n.enum?.filter((v): v is string => typeof v === 'string');
  return {
    ...(typeof n.minimum === 'number' ? { min: n.minimum } : {}),
    ...(typeof n.maximum === 'number' ? { max: n.maximum } : {}),
    ...(typeof n.maxLength === 'number' ? { maxLength: n.maxLength } : {}),
    ...(values?.length ? { values } : {}),
  };
}
