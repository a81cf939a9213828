import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type TemplatesOutputs = RouterOutputs['templates'];

export type TemplateSummary = TemplatesOutputs['list']['data'][number];
export type Template = TemplatesOutputs['get'];
/** The editor's content rendered with sample variables (templates.previewContent), with the variables it reads. */
export type RenderedTemplate = TemplatesOutputs['previewContent'];
export type CreateTemplateInput = RouterInputs['templates']['create'];
export type UpdateTemplateInput = RouterInputs['templates']['update'];
