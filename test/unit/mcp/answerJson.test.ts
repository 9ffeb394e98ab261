import { answerAtOnce, answerInSlices, stringifyInSlices } from "../../../src/mcp/answerJson";
import { knownJsonText } from "../../../src/jsonText";
import { SliceClock } from "../../../src/markdown/steps";

/** Values whose JSON has every case JSON.stringify treats specially. */
const AWKWARD: Record<string, unknown> = {
	text: 'quote " backslash \\ tab \t newline \n nul \u0000 lone \ud800 pair 😀 line sep \u2028 é 東京',
	"2": "an integer key comes first",
	missing: undefined,
	fn: () => 1,
	numbers: [0, -0, 1.5e300, Number.NaN, Number.POSITIVE_INFINITY, -1],
	holes: [1, undefined, () => 2, null, [3, [4, { deep: [5] }]]],
	date: new Date(Date.UTC(2026, 0, 2)),
	rows: Array.from({ length: 300 }, (_, index) => ({
		path: `N${index}.md`,
		values: { "file.name": `N${index}`, gone: undefined },
		group: index % 2 === 0 ? null : 'a"b',
	})),
	nested: { list: [{ a: 1 }, "x"], when: new Date(0), none: undefined },
	empty: { list: [], object: {} },
};

describe("a tool's answer made in slices", () => {
	test("its text is exactly JSON.stringify's, whatever the values", async () => {
		const clock = new SliceClock(0, () => Promise.resolve());
		expect(await stringifyInSlices(AWKWARD, clock)).toBe(JSON.stringify(AWKWARD));
		for (const value of [{}, { a: [] }, { a: [[[]]] }, { a: "x" }]) expect(await stringifyInSlices(value, clock)).toBe(JSON.stringify(value));
	});

	test("the answer is structuredContent and the same text, and its byte count is that of the whole result as JSON", async () => {
		for (const value of [AWKWARD, { small: ['"\\'] }, { path: "Ünïcode 東京.md", rows: [] }]) {
			const { result, bytes } = await answerInSlices(value, 0, () => Promise.resolve());
			expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });
			expect(bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
		}
	});

	test("the answer's text is remembered for its structured content, so the transport does not make it again; a long text with pairs on every count boundary is counted exactly", async () => {
		const long = { rows: Array.from({ length: 20_000 }, (_, index) => ({ path: `N${index}.md`, text: 'a "😀" \\ é' })) };
		for (const value of [long, { small: true }]) {
			const { result, bytes } = await answerInSlices(value, 0, () => Promise.resolve());
			expect(knownJsonText(value)).toBe(JSON.stringify(value));
			expect(bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
		}
	});

	test("a thousand-row answer gives the host its turn between rows; a small one never waits for a turn", async () => {
		let pauses = 0;
		const pause = () => {
			pauses++;
			return Promise.resolve();
		};
		const rows = Array.from({ length: 1000 }, (_, index) => ({ path: `N${index}.md`, line: index }));
		await answerInSlices({ rows, total: 1000 }, 0, pause);
		expect(pauses).toBeGreaterThanOrEqual(1000);
		pauses = 0;
		await answerInSlices({ rows: rows.slice(0, 10), total: 10 }, 0, pause);
		expect(pauses).toBe(0);
	});
});

describe("a small answer made at once", () => {
	test("is what answerInSlices makes, without a promise, its byte count exact; a thousand-row answer is left to answerInSlices", async () => {
		for (const value of [
			{ small: ['"\\'] },
			{ path: "Ünïcode 東京.md", rows: [], text: `${"é".repeat(70_000)}"😀"` },
			{ rows: (AWKWARD.rows as unknown[]).slice(0, 200) },
		]) {
			const atOnce = answerAtOnce(value);
			expect(atOnce).toEqual(await answerInSlices(value, 0, () => Promise.resolve()));
			expect(atOnce?.bytes).toBe(Buffer.byteLength(JSON.stringify(atOnce?.result)));
			expect(knownJsonText(value)).toBe(JSON.stringify(value));
		}
		expect(answerAtOnce({ rows: Array.from({ length: 1000 }, (_, index) => index) })).toBeNull();
	});

	test("a short answer's content is remembered as its exact JSON (the transport writes it without quoting the text again), its byte count exact; a long one's is not", () => {
		const { rows: _rows, ...awkwardFew } = AWKWARD;
		for (const value of [awkwardFew, { small: ['"\\'] }, { quotes: '"'.repeat(500), slashes: "\\".repeat(500) }, { path: "Ünïcode 東京 😀.md" }, {}]) {
			const atOnce = answerAtOnce(value);
			if (atOnce === null) throw new Error("a small answer is made at once");
			expect(knownJsonText(atOnce.result.content)).toBe(JSON.stringify(atOnce.result.content));
			expect(atOnce.bytes).toBe(Buffer.byteLength(JSON.stringify(atOnce.result)));
		}
		const long = answerAtOnce({ text: `${"é".repeat(70_000)}"😀"` });
		expect(long && knownJsonText(long.result.content)).toBeUndefined();
		expect(long?.bytes).toBe(Buffer.byteLength(JSON.stringify(long?.result)));
	});
});
