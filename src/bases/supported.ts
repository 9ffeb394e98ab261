/**
 * Which functions and methods Obsidian's Bases function reference documents, and the check that
 * refuses anything else by name before a query runs.
 */
import { walkExpression, type Expression } from "./expression";

/** The global functions Bases documents, and the ones that only render in Obsidian's view. */
const GLOBAL_FUNCTIONS = new Set(["date", "duration", "escapeHTML", "file", "if", "link", "list", "max", "min", "now", "number", "random", "today"]);

const RENDER_ONLY_FUNCTIONS = new Set(["html", "image", "icon"]);

/** Every method name of every type in the reference; which type has which is checked when called. */
const METHODS = new Set([
	"isTruthy",
	"isType",
	"toString",
	"isEmpty",
	"date",
	"format",
	"time",
	"relative",
	"contains",
	"containsAll",
	"containsAny",
	"endsWith",
	"lower",
	"replace",
	"repeat",
	"reverse",
	"slice",
	"split",
	"startsWith",
	"title",
	"trim",
	"abs",
	"ceil",
	"floor",
	"round",
	"toFixed",
	"filter",
	"flat",
	"join",
	"map",
	"reduce",
	"sort",
	"unique",
	"asFile",
	"linksTo",
	"asLink",
	"hasLink",
	"hasProperty",
	"hasTag",
	"inFolder",
	"keys",
	"values",
	"matches",
]);

/**
 * Refuses, by name, any function or construct this evaluator does not implement: a function
 * outside the reference, a render-only one (`html`, `image`, `icon`), `values` outside a summary.
 */
export function checkSupported(expression: Expression): string | null {
	for (const node of walkExpression(expression)) {
		if (node.kind === "call" && node.callee.kind === "identifier") {
			const name = node.callee.name;
			if (RENDER_ONLY_FUNCTIONS.has(name))
				return `The function ${name}() is not supported: it only renders in Obsidian's view, and query_base returns data.`;
			if (!GLOBAL_FUNCTIONS.has(name))
				return `The function ${name}() is not supported (not in Obsidian's Bases function reference, or added by a plugin).`;
		}
		if (node.kind === "call" && node.callee.kind === "member" && !METHODS.has(node.callee.name)) {
			return `The function ${node.callee.name}() is not supported (not in Obsidian's Bases function reference, or added by a plugin).`;
		}
		if (
			node.kind === "call" &&
			node.callee.kind === "identifier" &&
			(node.callee.name === "now" || node.callee.name === "today" || node.callee.name === "random") &&
			node.args.length > 0
		) {
			return `The function ${node.callee.name}() takes no arguments.`;
		}
	}
	return null;
}
