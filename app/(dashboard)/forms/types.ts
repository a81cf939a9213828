import type { RouterOutputs } from '@/server/routers/types';

type FormsOutputs = RouterOutputs['forms'];

export type SignUpForm = FormsOutputs['get'];
export type FormSubmission = FormsOutputs['submissions']['data'][number];
