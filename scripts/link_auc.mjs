// Test AUC and AP of link prediction recomputed outside the JVM, by DuckDB (its Node client) reading `infer`'s
// Parquet embeddings and the pairs `train --task link --link-pairs DIR` wrote:
//   DUCKDB_PREFIX=DIR node scripts/link_auc.mjs PAIRS_DIR EMBEDDINGS_DIR [METRICS_JSON] [test|val]
// DUCKDB_PREFIX is an `npm install --prefix` folder holding @duckdb/node-api (scripts/link-auc-check installs it).
// A pair scores z_src . z_dst (DOUBLE); AUC is the Mann-Whitney statistic with ties counted one half, AP
// scikit-learn's average_precision_score (one step per distinct score), both in SQL. With METRICS_JSON it compares
// with its best {set}_auc / {set}_ap and exits 1 if either differs by more than 1e-4. Paths are local folders.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [pairs, embeddings, metrics, set = 'test'] = process.argv.slice(2);
if (!pairs || !embeddings || !['test', 'val'].includes(set)) {
  console.error('usage: node scripts/link_auc.mjs PAIRS_DIR EMBEDDINGS_DIR [METRICS_JSON] [test|val]');
  process.exit(2);
}
const prefix = process.env.DUCKDB_PREFIX;
if (!prefix) {
  console.error('link_auc: set DUCKDB_PREFIX to the npm --prefix folder holding @duckdb/node-api');
  process.exit(2);
}
const entry = createRequire(resolve(prefix) + '/').resolve('@duckdb/node-api');
const { DuckDBInstance } = await import(pathToFileURL(entry).href);
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const q = (s) => s.replace(/'/g, "''");
const parquet = (dir) => `read_parquet('${q(dir)}/*.parquet')`;
const one = async (sql) => (await c.runAndReadAll(sql)).getRowObjects()[0];

await c.run(`create table emb as select id, embedding::DOUBLE[] z from ${parquet(embeddings)}`);
const scored = async (name, dir) => {
  await c.run(`create table ${name} as select list_dot_product(a.z, b.z) score from ${parquet(dir)} p
      join emb a on a.id = p.src join emb b on b.id = p.dst`);
  const rows = Number((await one(`select count(*) n from ${parquet(dir)}`)).n);
  const got = Number((await one(`select count(*) n from ${name}`)).n);
  if (rows !== got || rows === 0) {
    console.error(`link_auc: ${dir}: ${rows} pairs, ${got} with both embeddings (every pair needs both; none is empty)`);
    process.exit(1);
  }
  return rows;
};
const p = await scored('pos', `${pairs}/${set}`);
const n = await scored('neg', `${pairs}/${set}-negatives`);
const r = await one(`
  with s as (select score, 1 y from pos union all select score, 0 y from neg),
  ranked as (select y, rank() over (order by score) + (count(*) over (partition by score) - 1) / 2.0 r from s),
  g as (select score, sum(y) tp_here, count(*) n_here from s group by score),
  cum as (select tp_here, sum(tp_here) over (order by score desc) tp, sum(n_here) over (order by score desc) k from g)
  select (select (sum(r) - ${p} * (${p} + 1) / 2.0) / (${p}::DOUBLE * ${n}) from ranked where y = 1) auc,
         (select sum(tp_here * tp / k) / ${p} from cum) ap,
         (select count(*) from emb) nodes, version() duckdb`);
const got = { auc: Number(r.auc), ap: Number(r.ap) };
console.log(`link_auc: ${p} ${set} edges, ${n} negatives, ${r.nodes} embeddings (DuckDB ${r.duckdb}): `
    + `${set} auc ${got.auc.toFixed(6)} ap ${got.ap.toFixed(6)}`);
if (metrics) {
  const best = JSON.parse(readFileSync(metrics, 'utf8')).best;
  let worst = 0;
  for (const k of ['auc', 'ap']) {
    const want = best[`${set}_${k}`];
    const diff = Math.abs(got[k] - want);
    worst = Math.max(worst, diff);
    console.log(`link_auc: metrics.json best ${set}_${k} ${want.toFixed(6)}, recomputed ${got[k].toFixed(6)}, `
        + `difference ${diff.toExponential(2)}`);
  }
  console.log(worst <= 1e-4 ? 'link_auc: OK (within 1e-4)' : 'link_auc: FAILED: differs by more than 1e-4');
  process.exit(worst <= 1e-4 ? 0 : 1);
}
