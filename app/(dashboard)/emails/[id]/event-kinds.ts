import type { EmailEventType } from '@/server/vocabulary/event-types';
import {
  BanIcon,
  CalendarIcon,
  CheckIcon,
  ClockIcon,
  MousePointerClickIcon,
  EyeIcon,
  FlagIcon,
  InboxIcon,
  Undo2Icon,
  SendIcon,
  TriangleAlertIcon,
  CircleXIcon,
  UserMinusIcon,
  type LucideIcon,
} from 'lucide-react';

export interface EventKind {
  label: string;
  icon: LucideIcon;
  /** The icon's disc: background and foreground. */
  tone: string;
}

const slate = 'bg-slate-100 text-slate-600';

const KINDS: Record<EmailEventType, EventKind> = {
  'email.queued': { label: 'Queued', icon: InboxIcon, tone: slate },
  'email.scheduled': { label: 'Scheduled', icon: CalendarIcon, tone: 'bg-violet-100 text-violet-700' },
  'email.canceled': { label: 'Canceled', icon: CircleXIcon, tone: slate },
  'email.sent': { label: 'Sent', icon: SendIcon, tone: 'bg-sky-100 text-sky-700' },
  'email.delivered': { label: 'Delivered', icon: CheckIcon, tone: 'bg-emerald-100 text-emerald-700' },
  'email.delivery_delayed': { label: 'Delivery delayed', icon: ClockIcon, tone: 'bg-amber-100 text-amber-800' },
  'email.bounced': { label: 'Bounced', icon: Undo2Icon, tone: 'bg-orange-100 text-orange-700' },
  'email.complained': { label: 'Marked as spam', icon: FlagIcon, tone: 'bg-fuchsia-100 text-fuchsia-700' },
  'email.suppressed': { label: 'Suppressed', icon: BanIcon, tone: 'bg-amber-100 text-amber-800' },
  'email.failed': { label: 'Failed', icon: TriangleAlertIcon, tone: 'bg-red-100 text-red-700' },
  'email.opened': { label: 'Opened', icon: EyeIcon, tone: 'bg-indigo-100 text-indigo-700' },
  'email.clicked': { label: 'Clicked', icon: MousePointerClickIcon, tone: 'bg-indigo-100 text-indigo-700' },
  'email.unsubscribed': { label: 'Unsubscribed', icon: UserMinusIcon, tone: 'bg-amber-100 text-amber-800' },
};

/** How the timeline draws an event: every email event type has its own look (a new one is a type error until drawn). */
export function eventKind(type: EmailEventType): EventKind {
  return KINDS[type];
}
