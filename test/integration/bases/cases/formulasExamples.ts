import type { BaseCase } from "../docsVault";

/** The "Formula examples" of the "Formulas" page, on two project notes with dates, numbers and names. */
export const formulasExamples: BaseCase = {
	page: "Bases/Formulas.md",
	example: "Formula examples (deadline, overdue, currency, list count, priority, full name)",
	base: `filters: 'file.inFolder("Projects")'
formulas:
  deadline: 'start_date + "2w"'
  overdue: 'if(due_date < now() && status != "Done", "Overdue", "")'
  currency: 'if(price, "$" + price.toFixed(2), "")'
  task_count: 'tasks.length'
  priority: '(impact * urgency) / effort'
  full_name: 'first_name + " " + last_name'
  uses_formula: 'formula.priority * 1.1'
views:
  - type: table
    name: Projects
    order: [file.name, formula.deadline, formula.overdue, formula.currency, formula.task_count, formula.priority, formula.full_name, formula.uses_formula]
    sort:
      - property: file.name
        direction: ASC
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Projects/Garden.md",
						values: {
							"formula.deadline": "2025-01-20",
							// Due in the past, but done.
							"formula.overdue": "",
							"formula.currency": "$2.00",
							"formula.task_count": 3,
							"formula.priority": 6,
							"formula.full_name": "Ada Lovelace",
							"formula.uses_formula": 6.6000000000000005,
						},
					},
					{
						path: "Projects/Shed.md",
						values: {
							"formula.deadline": null,
							"formula.overdue": "Overdue",
							"formula.currency": "",
							"formula.task_count": null,
							"formula.priority": null,
						},
					},
				],
			},
		},
	],
};
