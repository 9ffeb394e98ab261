import type { ToolDescriptor } from "../tool";
import { getVaultStatusTool } from "./get_vault_status";

/** Every tool the server has. Registration filters them by the caller's grant. */
export const ALL_TOOLS: readonly ToolDescriptor[] = [getVaultStatusTool];
