// node medians.mjs ROWS.jsonl|ROWS.csv: loads --rows output into DuckDB
// as it is (read_json newline-delimited, read_csv with its header) and
// prints {"metric": median, ...} of the rows without an error, and the
// number of error rows as "__errors".
import { DuckDBInstance } from '@duckdb/node-api';

const file = process.argv[2];
const src = file.endsWith('.csv')
    ? `read_csv('${file}', header = true)`
    : `read_json('${file}', format = 'newline_delimited')`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`CREATE TABLE rows AS SELECT * FROM ${src}`);
const med = await con.runAndReadAll(
    'SELECT metric, median(value)::DOUBLE AS m FROM rows WHERE error IS NULL GROUP BY metric');
const out = {};
for (const r of med.getRowObjects())
    out[r.metric] = r.m;
const errs = await con.runAndReadAll('SELECT count(*)::INTEGER AS n FROM rows WHERE error IS NOT NULL');
out.__errors = errs.getRowObjects()[0].n;
console.log(JSON.stringify(out));
