import fc from "fast-check";
import { FairApprovalLine, type ApprovalRequest } from "../../../src/mcp/approval";

interface Item {
	request: ApprovalRequest;
}
const item = (tokenName: string, id: string): Item => ({ request: { id, tokenName, tool: "append_to_note", toolTitle: "Append to a note", changes: [] } });

describe("FairApprovalLine: the order questions reach the person", () => {
	test("tokens take turns; the token on screen goes behind a token that arrives meanwhile", () => {
		const line = new FairApprovalLine<Item>(10);
		for (const id of ["a1", "a2", "a3"]) line.add(item("a", id));
		expect(line.showNext()?.request.id).toBe("a1");
		line.add(item("b", "b1"));
		line.add(item("c", "c1"));
		line.add(item("b", "b2"));
		const order = [];
		for (let next = line.showNext(); next; next = line.showNext()) order.push(next.request.id);
		expect(order).toEqual(["b1", "c1", "a2", "b2", "a3"]);
		expect(line.size).toBe(0);
	});

	test("a question put back goes to the head of its token's line, and its token to the back of the turns", () => {
		const line = new FairApprovalLine<Item>(10);
		for (const [token, id] of [
			["a", "a1"],
			["a", "a2"],
			["b", "b1"],
			["c", "c1"],
		])
			line.add(item(token ?? "", id ?? ""));
		expect(line.showNext()?.request.id).toBe("a1");
		expect(line.othersWaiting).toBe(true);
		line.putBack();
		const order = [];
		for (let next = line.showNext(); next; next = line.showNext()) order.push(next.request.id);
		expect(order).toEqual(["b1", "c1", "a1", "a2"]);
	});

	test("a token's bound counts the question on screen; the refused call changes nothing", () => {
		const line = new FairApprovalLine<Item>(2);
		expect(line.add(item("a", "a1"))).toBe(true);
		line.showNext();
		expect(line.add(item("a", "a2"))).toBe(true);
		expect(line.add(item("a", "a3"))).toBe(false);
		expect(line.add(item("b", "b1"))).toBe(true);
		expect(line.size).toBe(3);
		expect(line.takeAll().map((each) => each.request.id)).toEqual(["a1", "a2", "b1"]);
	});

	test("removing: the shown question is reported as shown (and stays until the next is shown); a waiting one leaves; a gone one is absent", () => {
		const line = new FairApprovalLine<Item>(5);
		const [a1, a2, b1] = [item("a", "a1"), item("a", "a2"), item("b", "b1")];
		for (const each of [a1, a2, b1]) line.add(each);
		line.showNext();
		expect(line.remove(a1)).toBe("shown");
		expect(line.remove(a2)).toBe("waiting");
		expect(line.remove(a2)).toBe("absent");
		expect(line.showNext()).toBe(b1);
		expect(line.showNext()).toBeNull();
	});

	test("property: while a token has calls waiting, no other token gets two questions before its next one", () => {
		const step = fc.oneof(fc.record({ add: fc.constantFrom("a", "b", "c", "d") }), fc.constant({ show: true }));
		fc.assert(
			fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
				const line = new FairApprovalLine<Item>(1_000);
				const waitingOf = new Map<string, number>();
				/** Per waiting token: the questions of other tokens shown since it last had one (or since it started waiting). */
				const shownSince = new Map<string, Map<string, number>>();
				let count = 0;
				for (const each of steps) {
					if ("add" in each) {
						line.add(item(each.add, `${each.add}${count++}`));
						waitingOf.set(each.add, (waitingOf.get(each.add) ?? 0) + 1);
						if (!shownSince.has(each.add)) shownSince.set(each.add, new Map());
						continue;
					}
					const next = line.showNext();
					if (!next) continue;
					const token = next.request.tokenName;
					waitingOf.set(token, (waitingOf.get(token) ?? 1) - 1);
					for (const [waiter, others] of shownSince) {
						if (waiter === token) continue;
						const times = (others.get(token) ?? 0) + 1;
						expect(times).toBeLessThanOrEqual(1);
						others.set(token, times);
					}
					shownSince.set(token, new Map());
					if (waitingOf.get(token) === 0) shownSince.delete(token);
				}
			}),
		);
	});
});
