// Builds the external MetaTool evaluation set from the raw files saved, unchanged, under
// test/fixtures/metatool/raw/ (see test/fixtures/metatool/README.md for where they come from):
//   node scripts/metatoolFixture.mjs
// writes test/fixtures/metatool-catalog.json, test/fixtures/search-metatool.json and, when the
// two-tool file is there, test/fixtures/search-metatool-multi.json, and prints the counts.
// The selection rule is fixed in the README before anyone ranked these queries: nothing here may
// depend on how the project's search does on them.
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test', 'fixtures');
const raw = join(fixtures, 'metatool', 'raw');

export const REPO = 'HowieHwong/MetaTool';
export const COMMIT = 'e1029bcfdb1039aff6ce24b548920d8bc25b1c3d';
const SERVER = 'metatool';
const MAX_QUERY = 300;
const exposed = (tool) => `${SERVER}__${tool}`;

/** RFC 4180: fields split by commas, records by CRLF or LF; a quoted field may hold commas, line
 *  breaks and doubled quotes. A quote inside an unquoted field is kept as a character. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
      continue;
    }
    if (c === ',') {
      row.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    i++;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function readJson(name) {
  return JSON.parse(readFileSync(join(raw, name), 'utf8'));
}

/** The catalog: every tool of plugin_des.json (199: the 47 merged tools of big_tool_des.json, with
 *  the same descriptions, plus the single plugins), in the file's order. */
export function buildCatalog() {
  const des = readJson('plugin_des.json');
  const big = readJson('big_tool_des.json');
  for (const [name, d] of Object.entries(big)) {
    if (des[name] !== d) throw new Error(`big_tool_des.json's ${name} differs from plugin_des.json's: check the raw files.`);
  }
  const tools = Object.entries(des).map(([name, description]) => ({ name: exposed(name), description, inputSchema: { type: 'object' } }));
  return { servers: { [SERVER]: { package: `github:${REPO}@${COMMIT}`, tools: tools.length } }, tools };
}

/** Single-tool queries: the rows of the saved CSV chunks (ascending offset, file order), header
 *  skipped, query trimmed, at most 300 characters, identical query+tool rows kept once. */
export function buildSingle(known) {
  const files = readdirSync(raw)
    .filter((f) => /^clean-\d+\.csv$/.test(f))
    .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]));
  const seen = new Set();
  const out = [];
  const stats = { files, rows: 0, long: 0, duplicates: 0, unknown: new Set() };
  for (const f of files) {
    for (const r of parseCsv(readFileSync(join(raw, f), 'utf8'))) {
      if (r.length === 2 && r[0] === 'Query' && r[1] === 'Tool') continue;
      if (r.length !== 2) throw new Error(`${f}: a row with ${r.length} fields: ${JSON.stringify(r)}`);
      stats.rows++;
      const query = r[0].trim();
      const tool = r[1].trim();
      if (query.length > MAX_QUERY) {
        stats.long++;
        continue;
      }
      if (!known.has(tool)) {
        stats.unknown.add(tool);
        continue;
      }
      const key = `${query}\u0000${tool}`;
      if (seen.has(key)) {
        stats.duplicates++;
        continue;
      }
      seen.add(key);
      out.push({ query, expected: [exposed(tool)] });
    }
  }
  return { gold: out, stats };
}

/** Two-tool queries: every entry of multi_tool_query_golden.json whose tools are all in the
 *  catalog; a query wrapped in one pair of literal double quotes (as some are) is unwrapped. */
export function buildMulti(known) {
  const entries = readJson('multi_tool_query_golden.json');
  const out = [];
  const seen = new Set();
  const stats = { entries: entries.length, dropped: [], duplicates: 0 };
  for (const e of entries) {
    let query = e.query.trim();
    if (query.length >= 2 && query.startsWith('"') && query.endsWith('"')) query = query.slice(1, -1).trim();
    const tools = [...new Set(e.tool)];
    const missing = tools.filter((t) => !known.has(t));
    if (missing.length) {
      stats.dropped.push({ query, missing });
      continue;
    }
    const key = `${query}\u0000${[...tools].sort().join(',')}`;
    if (seen.has(key)) {
      stats.duplicates++;
      continue;
    }
    seen.add(key);
    out.push({ query, expected: tools.map(exposed) });
  }
  return { gold: out, stats };
}

const goldText = (gold) =>
  `[\n${gold.map((g) => `  {"query": ${JSON.stringify(g.query)}, "expected": [${g.expected.map((e) => JSON.stringify(e)).join(', ')}]}`).join(',\n')}\n]\n`;

function perTool(gold) {
  const n = new Map();
  for (const g of gold) for (const e of g.expected) n.set(e, (n.get(e) ?? 0) + 1);
  const counts = [...n.values()].sort((a, b) => a - b);
  const median = counts.length % 2 ? counts[(counts.length - 1) / 2] : (counts[counts.length / 2 - 1] + counts[counts.length / 2]) / 2;
  return { tools: counts.length, min: counts[0], median, max: counts[counts.length - 1], atLeast5: counts.filter((c) => c >= 5).length };
}

function main() {
  const catalog = buildCatalog();
  const known = new Set(catalog.tools.map((t) => t.name.slice(SERVER.length + 2)));
  writeFileSync(join(fixtures, 'metatool-catalog.json'), JSON.stringify(catalog, null, 1) + '\n');
  console.log(`catalog: ${catalog.tools.length} tools`);

  const single = buildSingle(known);
  writeFileSync(join(fixtures, 'search-metatool.json'), goldText(single.gold));
  const s = single.stats;
  const pt = perTool(single.gold);
  const sameQuery = new Map();
  for (const g of single.gold) sameQuery.set(g.query, (sameQuery.get(g.query) ?? 0) + 1);
  console.log(
    `single: ${s.files.length} chunks (${s.files.join(', ')}), ${s.rows} rows, ${s.long} longer than ${MAX_QUERY} dropped, ${s.duplicates} duplicate rows dropped, ${[...s.unknown].length} unknown tools ${JSON.stringify([...s.unknown])}`,
  );
  console.log(
    `single: ${single.gold.length} queries over ${pt.tools} tools; per tool min ${pt.min} / median ${pt.median} / max ${pt.max}; ${pt.atLeast5} tools with >= 5 queries; ${[...sameQuery.values()].filter((c) => c > 1).length} query texts expected for more than one tool`,
  );

  if (existsSync(join(raw, 'multi_tool_query_golden.json'))) {
    const multi = buildMulti(known);
    writeFileSync(join(fixtures, 'search-metatool-multi.json'), goldText(multi.gold));
    const m = multi.stats;
    console.log(
      `multi: ${m.entries} entries, ${multi.gold.length} kept, ${m.dropped.length} dropped (tool not in the catalog: ${JSON.stringify([...new Set(m.dropped.flatMap((d) => d.missing))])}), ${m.duplicates} duplicates dropped`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
