// Writes config.schema.json from the config's zod schema. Run: npm run gen:schema
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from '../src-main/core/config/jsonSchema.js';
import { ROOT } from '../test/helpers/processes.js';

writeFileSync(join(ROOT, CONFIG_SCHEMA_FILE), configJsonSchemaText());
process.stdout.write(`Wrote ${CONFIG_SCHEMA_FILE}.\n`);
