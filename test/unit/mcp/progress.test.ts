import type { ServerNotification } from "@modelcontextprotocol/server";
import { withProgress, type ProgressRequest } from "../../../src/mcp/progress";

/** A request that records what it is told, or fails to send when `failing`. */
function requestWith(progressToken: string | number | undefined, failing = false): ProgressRequest & { sent: ServerNotification[] } {
	const sent: ServerNotification[] = [];
	return {
		...(progressToken === undefined ? {} : { _meta: { progressToken } }),
		sent,
		notify: (notification) => {
			sent.push(notification);
			return failing ? Promise.reject(new Error("the client went away")) : Promise.resolve();
		},
	};
}

function after(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

describe("withProgress: a long call tells a client that asked for progress that it is still working", () => {
	test("a call whose request has no progressToken sends nothing, however long it runs", async () => {
		const request = requestWith(undefined);
		await expect(
			withProgress(
				after(60).then(() => "done"),
				request,
				"rename_note",
				10,
			),
		).resolves.toBe("done");
		expect(request.sent).toEqual([]);
	});

	test("with a progressToken: a notification per interval, counting up, echoing the token and naming the tool; none after the call ends", async () => {
		const request = requestWith("rename-1");
		await expect(
			withProgress(
				after(75).then(() => 42),
				request,
				"rename_note",
				20,
			),
		).resolves.toBe(42);
		const counted = request.sent.length;
		expect(counted).toBeGreaterThanOrEqual(1);
		request.sent.forEach((notification, index) => {
			expect(notification.method).toBe("notifications/progress");
			expect(notification.params).toMatchObject({ progressToken: "rename-1", progress: index + 1 });
			expect((notification.params as { message?: string }).message).toContain("rename_note");
		});
		await after(60);
		expect(request.sent).toHaveLength(counted);
	});

	test("a call that ends before the first interval sends nothing", async () => {
		const request = requestWith(7);
		await withProgress(Promise.resolve("quick"), request, "read_note", 50);
		await after(80);
		expect(request.sent).toEqual([]);
	});

	test("a notification that cannot be sent does not fail the call, and the call's own failure comes through as it was", async () => {
		const failingClient = requestWith("t", true);
		await expect(
			withProgress(
				after(50).then(() => "kept"),
				failingClient,
				"rename_note",
				10,
			),
		).resolves.toBe("kept");
		expect(failingClient.sent.length).toBeGreaterThanOrEqual(1);
		await expect(
			withProgress(
				after(30).then(() => Promise.reject(new Error("refused"))),
				requestWith("u"),
				"rename_note",
				10,
			),
		).rejects.toThrow("refused");
	});
});
