import type { Metadata } from 'next';
import { TemplateEditorView } from './template-editor-view';

export const metadata: Metadata = { title: 'Template' };

export default async function TemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TemplateEditorView id={id} />;
}
