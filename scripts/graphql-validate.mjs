#!/usr/bin/env node
// Validates a GraphQL schema and operations with graphql-js, the
// reference implementation that clients build on.
//
//   AISLE_GRAPHQL_JS=DIR/node_modules/graphql \
//     node scripts/graphql-validate.mjs OP.graphql... < introspection.json
//
// stdin is an introspection result: the server's whole answer
// ({"data": {"__schema": ...}}) or its data ({"__schema": ...}). The
// script builds the client schema from it (buildClientSchema), asserts
// the schema is valid (assertValidSchema), then parses each operation
// file and validates it against the schema (validate). Each error is
// printed as FILE:LINE:COLUMN: MESSAGE (FILE is "schema" for the
// schema's). Exit status: 0 when all are valid, 1 when any error was
// found, 2 when the script could not run (no graphql-js, no files,
// stdin not an introspection result).
//
// AISLE_GRAPHQL_JS is the graphql package's directory (.ci/run installs
// it pinned); without it the bare specifier "graphql" is imported.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function fail(message) {
	console.error("graphql-validate: " + message);
	process.exit(2);
}

const dir = process.env.AISLE_GRAPHQL_JS;
let graphql;
try {
	graphql = await import(dir ? pathToFileURL(join(dir, "index.mjs")).href : "graphql");
} catch (e) {
	fail(`cannot load graphql-js (${dir ? "AISLE_GRAPHQL_JS=" + dir : "bare import"}): ${e.message}`);
}
const { buildClientSchema, assertValidSchema, parse, validate, version } = graphql;

const files = process.argv.slice(2);
if (files.length === 0) {
	fail("no operation files given");
}

let result;
try {
	result = JSON.parse(readFileSync(0, "utf8"));
} catch (e) {
	fail("stdin is not JSON: " + e.message);
}
const introspection = result && result.data ? result.data : result;
if (!introspection || !introspection.__schema) {
	fail("stdin holds no __schema");
}

// where is an error's place: FILE:LINE:COLUMN, or FILE.
function where(file, err) {
	const loc = err.locations && err.locations[0];
	return loc ? `${file}:${loc.line}:${loc.column}` : file;
}

let errors = 0;
let schema;
try {
	schema = buildClientSchema(introspection);
	assertValidSchema(schema);
} catch (e) {
	console.log(`schema: ${e.message}`);
	process.exit(1);
}

for (const file of files) {
	let doc;
	try {
		doc = parse(readFileSync(file, "utf8"));
	} catch (e) {
		if (e.code === "ENOENT") {
			fail(`${file}: no such file`);
		}
		console.log(`${where(file, e)}: ${e.message}`);
		errors++;
		continue;
	}
	for (const e of validate(schema, doc)) {
		console.log(`${where(file, e)}: ${e.message}`);
		errors++;
	}
}
console.log(`graphql-js ${version}: schema valid, ${files.length} operation file(s), ${errors} error(s)`);
process.exit(errors > 0 ? 1 : 0);
