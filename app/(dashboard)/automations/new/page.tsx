import type { Metadata } from 'next';
import { AutomationEditor } from '../editor/automation-editor';

export const metadata: Metadata = { title: 'New automation' };

export default function NewAutomationPage() {
  return <AutomationEditor />;
}
