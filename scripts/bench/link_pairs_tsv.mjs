// Exports the tables of `train --task link --link-pairs DIR` (Parquet) as OUT/NAME.tsv (src, dst[, weight]; no
// header), with DuckDB's Node client, for scripts/bench/link_torch.py (Debian has no pyarrow):
//   DUCKDB_PREFIX=DIR node scripts/bench/link_pairs_tsv.mjs PAIRS_DIR OUT_DIR
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [pairs, out] = process.argv.slice(2);
const entry = createRequire(resolve(process.env.DUCKDB_PREFIX || '.') + '/').resolve('@duckdb/node-api');
const { DuckDBInstance } = await import(pathToFileURL(entry).href);
const c = await (await DuckDBInstance.create(':memory:')).connect();
mkdirSync(out, { recursive: true });
const q = (s) => s.replace(/'/g, "''");
for (const t of ['train', 'val', 'val-negatives', 'test', 'test-negatives']) {
  await c.run(`copy (select * from read_parquet('${q(pairs)}/${t}/*.parquet')) to '${q(out)}/${t}.tsv'
      (header false, delimiter '\t')`);
}
