import { detachStrings, detachStringsSteps } from "../../../src/headless/detachedStrings";
import { replaceMethod } from "../../helpers/replaceMethod";

describe("detachStrings: parsed values that keep no note text alive", () => {
	test("returns the same value, with equal contents: headings, links, tags, frontmatter", () => {
		const value = {
			headings: [{ heading: "A heading long enough to be sliced", level: 1, position: { start: { line: 0, col: 0, offset: 0 } } }],
			links: [{ link: "Some/Linked note", original: "[[Some/Linked note]]" }],
			frontmatter: { title: "Short", nested: { list: ["a value long enough to copy", 3, null] } },
		};
		const before = structuredClone(value);
		expect(detachStrings(value)).toBe(value);
		expect(value).toEqual(before);
	});

	test("values without long strings, and non-objects, pass through", () => {
		expect(detachStrings(null)).toBeNull();
		expect(detachStrings("text")).toBe("text");
		const small = { tag: "#a" };
		expect(detachStrings(small)).toEqual({ tag: "#a" });
	});
});

describe("detachStringsSteps: the same, in steps", () => {
	test("a note's 21,000 aliased links and embeds are copied a few thousand strings a step, with the same contents (150,000 strings were one piece of about 0.1 s)", () => {
		const links = Array.from({ length: 21_000 }, (_, n) => ({
			link: `Hub#^block${n}`,
			original: `[[Hub#^block${n}|alias number ${n}]]`,
			displayText: `alias number ${n}`,
			position: { start: { line: n, col: 0, offset: n * 40 }, end: { line: n, col: 30, offset: n * 40 + 30 } },
		}));
		const value = { links, embeds: links.map((link) => ({ ...link })), frontmatter: { title: "a title long enough to copy" } };
		const before = structuredClone(value);
		const clone = jest.spyOn(globalThis, "structuredClone");
		const copiedPerStep: number[] = [];
		try {
			const steps = runStepsCounting(detachStringsSteps(value), () => {
				copiedPerStep.push(clone.mock.calls.reduce((sum, [copied]) => sum + (copied as unknown[]).length, 0));
				clone.mockClear();
			});
			expect(steps).toBe(value);
		} finally {
			clone.mockRestore();
		}
		expect(value).toEqual(before);
		// Every string of 13 characters or more (V8 copies shorter slices itself), each once.
		const long = [...links, ...value.embeds].flatMap((link) => [link.link, link.original, link.displayText]).filter((text) => text.length >= 13);
		expect(copiedPerStep.reduce((sum, count) => sum + count, 0)).toBe(long.length + 1);
		expect(Math.max(...copiedPerStep)).toBeLessThan(4_200);
	});

	test("a list of 40,000 links is walked a few thousand entries a step (it was walked, and each entry pushed, in one step)", () => {
		const links = Array.from({ length: 40_000 }, (_, n) => ({
			link: `Far note ${n}`,
			original: `[[Far note ${n}]]`,
			displayText: `Far note ${n}`,
			position: { start: { line: n, col: 0, offset: n * 20 }, end: { line: n, col: 16, offset: n * 20 + 16 } },
		}));
		const value = { links };
		const before = structuredClone(value);
		const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...items: unknown[]) => number;
		let pushes = 0;
		const perStep: number[] = [];
		const spy = replaceMethod(Array.prototype, "push", function (this: unknown[], ...items: unknown[]): number {
			pushes++;
			return push.apply(this, items);
		});
		try {
			runStepsCounting(detachStringsSteps(value), () => {
				perStep.push(pushes);
				pushes = 0;
			});
		} finally {
			spy.restore();
		}
		expect(value).toEqual(before);
		// Before: 40,000 pushes in one step.
		expect(Math.max(...perStep)).toBeLessThan(10_000);
	});

	test("values without long strings, and non-objects, pass through", () => {
		expect(runStepsCounting(detachStringsSteps(null), () => undefined)).toBeNull();
		expect(runStepsCounting(detachStringsSteps("text"), () => undefined)).toBe("text");
		expect(runStepsCounting(detachStringsSteps({ tag: "#a" }), () => undefined)).toEqual({ tag: "#a" });
	});
});

/** Runs stepped work to its end, calling `afterStep` after each step. */
function runStepsCounting<T>(steps: Generator<void, T, void>, afterStep: () => void): T {
	for (;;) {
		const next = steps.next();
		afterStep();
		if (next.done) return next.value;
	}
}
