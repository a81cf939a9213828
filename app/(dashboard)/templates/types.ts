import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type TemplatesOutputs = RouterOutputs['templates'];

export type TemplateSummary = TemplatesOutputs['list']['data'][number];
export type Template = TemplatesOutputs['get'];
export type RenderedTemplate = TemplatesOutputs['preview'];
export type CreateTemplateInput = RouterInputs['templates']['create'];
export type UpdateTemplateInput = RouterInputs['templates']['update'];
