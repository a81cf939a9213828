/** The parts of a template, in the order they render: 400s name them. */
export const PARTS = ['subject', 'html', 'text'] as const;
export type PartName = (typeof PARTS)[number];
