import { isListingOverBound } from "../../../src/host/Host";

describe("a folder's listing as the host answers it", () => {
	test("names (none too), or no such folder, are a listing read whole; only the bound's answer is over it", () => {
		expect(isListingOverBound(["Notes", "Daily"])).toBe(false);
		expect(isListingOverBound([])).toBe(false);
		expect(isListingOverBound(null)).toBe(false);
		expect(isListingOverBound({ bound: 100_000 })).toBe(true);
	});
});
