import type { JudgedQuery } from "./judgedQueries";

/**
 * The held-out judged set: questions a developer would type over the rule pages of
 * eslint-plugin-import (`docs/rules/`, 46 Markdown pages, version 2.32.0, MIT license, by Ben
 * Mosher and the import-js contributors), installed from the npm registry into
 * test/unseen-vaults by scripts/test-tools.mjs. Its titles are rule identifiers (`no-cycle`), not
 * sentences: a kind of vault none of the other sets has.
 *
 * Written on 2026-12-02 from each page's heading and opening paragraph, before the engine was run
 * on them, and measured once before the ranking changes of that day and once after. Nothing was
 * tuned on it: do not tune ranking on these queries, and do not edit them to match what the engine
 * answers. New queries go into a new set.
 */
export const IMPORT_RULES_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "import-rules", query: "detect circular imports between modules", expected: ["rules/no-cycle.md"] },
	{ vault: "import-rules", query: "sort imports into groups", expected: ["rules/order.md"] },
	{ vault: "import-rules", query: "alphabetize import statements", expected: ["rules/order.md"] },
	{ vault: "import-rules", query: "forbid default exports", expected: ["rules/no-default-export.md"] },
	{ vault: "import-rules", query: "prefer a default export when a file exports one thing", expected: ["rules/prefer-default-export.md"] },
	{ vault: "import-rules", query: "importing a package that is not in package.json", expected: ["rules/no-extraneous-dependencies.md"] },
	{ vault: "import-rules", query: "devDependencies imported in production code", expected: ["rules/no-extraneous-dependencies.md"] },
	{ vault: "import-rules", query: "import path cannot be resolved", expected: ["rules/no-unresolved.md"] },
	{ vault: "import-rules", query: "same module imported twice", expected: ["rules/no-duplicates.md"] },
	{ vault: "import-rules", query: "require file extensions in import paths", expected: ["rules/extensions.md"] },
	{ vault: "import-rules", query: "blank line after the imports", expected: ["rules/newline-after-import.md"] },
	{ vault: "import-rules", query: "imports must come before other statements", expected: ["rules/first.md", "rules/imports-first.md"] },
	{ vault: "import-rules", query: "put all exports at the end of the file", expected: ["rules/exports-last.md"] },
	{ vault: "import-rules", query: "find files that export nothing or exports nobody uses", expected: ["rules/no-unused-modules.md"] },
	{ vault: "import-rules", query: "warn when using a deprecated function", expected: ["rules/no-deprecated.md"] },
	{ vault: "import-rules", query: "stop server code from being imported in the client", expected: ["rules/no-restricted-paths.md"] },
	{ vault: "import-rules", query: "limit how many dependencies a module has", expected: ["rules/max-dependencies.md"] },
	{ vault: "import-rules", query: "ban node builtin modules in browser code", expected: ["rules/no-nodejs-modules.md"] },
	{ vault: "import-rules", query: "use the node: prefix for fs and path", expected: ["rules/enforce-node-protocol-usage.md"] },
	{ vault: "import-rules", query: "disallow require calls", expected: ["rules/no-commonjs.md"] },
	{ vault: "import-rules", query: "require with a variable instead of a string", expected: ["rules/no-dynamic-require.md"] },
	{ vault: "import-rules", query: "AMD define and require", expected: ["rules/no-amd.md"] },
	{ vault: "import-rules", query: "name webpack chunks in dynamic imports", expected: ["rules/dynamic-import-chunkname.md"] },
	{ vault: "import-rules", query: "webpack loader syntax in imports", expected: ["rules/no-webpack-loader-syntax.md"] },
	{ vault: "import-rules", query: "module imports itself", expected: ["rules/no-self-import.md"] },
	{ vault: "import-rules", query: "absolute paths in imports", expected: ["rules/no-absolute-path.md"] },
	{ vault: "import-rules", query: "remove unnecessary ./ and ../ segments from import paths", expected: ["rules/no-useless-path-segments.md"] },
	{ vault: "import-rules", query: "importing from a parent folder", expected: ["rules/no-relative-parent-imports.md"] },
	{ vault: "import-rules", query: "import a sibling workspace package by its name instead of a relative path", expected: ["rules/no-relative-packages.md"] },
	{ vault: "import-rules", query: "deep imports into another package's internals", expected: ["rules/no-internal-modules.md"] },
	{ vault: "import-rules", query: "avoid import * as namespace", expected: ["rules/no-namespace.md"] },
	{ vault: "import-rules", query: "default export should have a name", expected: ["rules/no-anonymous-default-export.md"] },
	{ vault: "import-rules", query: "exported let variables that can change", expected: ["rules/no-mutable-exports.md"] },
	{ vault: "import-rules", query: "import type versus inline type specifiers", expected: ["rules/consistent-type-specifier-style.md"] },
	{ vault: "import-rules", query: "named import that the module does not export", expected: ["rules/named.md"] },
	{ vault: "import-rules", query: "default import of a module without a default export", expected: ["rules/default.md"] },
	{ vault: "import-rules", query: "same name exported twice", expected: ["rules/export.md"] },
	{ vault: "import-rules", query: "keep all named exports in one export statement", expected: ["rules/group-exports.md"] },
	{ vault: "import-rules", query: "imports only for their side effects like css files", expected: ["rules/no-unassigned-import.md"] },
	{ vault: "import-rules", query: "empty curly braces in an import", expected: ["rules/no-empty-named-blocks.md"] },
	{ vault: "import-rules", query: "mixing import with module.exports", expected: ["rules/no-import-module-exports.md"] },
	{ vault: "import-rules", query: "file could be parsed as a script instead of a module", expected: ["rules/unambiguous.md"] },
	{ vault: "import-rules", query: "accessing a named export as a property of the default import", expected: ["rules/no-named-as-default-member.md"] },
	{ vault: "import-rules", query: "forbid named exports", expected: ["rules/no-named-export.md"] },
	{ vault: "import-rules", query: "property does not exist on a namespace import", expected: ["rules/namespace.md"] },
];
