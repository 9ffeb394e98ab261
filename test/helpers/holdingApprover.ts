import type { ApprovalDecision, ApprovalRequest, Approver } from "../../src/mcp/approval";

/** An approver that holds every question until the test answers it (`held`, in the order asked). */
export class HoldingApprover implements Approver {
	readonly held: Array<{ request: ApprovalRequest; answer: (decision: ApprovalDecision) => void }> = [];
	decide(request: ApprovalRequest): Promise<ApprovalDecision> {
		return new Promise((resolve) => this.held.push({ request, answer: resolve }));
	}
}
