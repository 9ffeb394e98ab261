import * as crypto from "node:crypto";
import { generateToken, hashToken } from "../../../src/auth/tokens";
import { PresentedTokenDigests } from "../../../src/http/tokenDigests";

describe("PresentedTokenDigests", () => {
	test("a token presented again on the same connection is not hashed again; another token, or another connection, is", () => {
		const { token } = generateToken("t", "read");
		const digests = new PresentedTokenDigests();
		const [first, second] = [{}, {}];
		const [mine, other] = [hashToken(token), hashToken("vmcp_other")];
		// The module object itself (an `import *` copy would not see the calls).
		const hashed = jest.spyOn(jest.requireActual<typeof crypto>("node:crypto"), "createHash");
		try {
			const digest = digests.digestOf(first, token);
			expect(digest.toString("hex")).toBe(mine);
			expect(digests.digestOf(first, token)).toBe(digest);
			expect(hashed).toHaveBeenCalledTimes(1);
			expect(digests.digestOf(first, "vmcp_other").toString("hex")).toBe(other);
			expect(digests.digestOf(first, token).toString("hex")).toBe(mine);
			expect(digests.digestOf(second, token).toString("hex")).toBe(mine);
			expect(hashed).toHaveBeenCalledTimes(4);
		} finally {
			hashed.mockRestore();
		}
	});
});
