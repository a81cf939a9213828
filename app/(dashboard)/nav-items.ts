import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { BanIcon, BookUserIcon, ClipboardPenLineIcon, ContactIcon, GaugeIcon, HouseIcon, GlobeIcon, KeyRoundIcon, MailIcon, MegaphoneIcon, LayoutTemplateIcon, ScrollTextIcon, SettingsIcon, ShieldCheckIcon, UsersIcon, WebhookIcon, WorkflowIcon, type LucideIcon } from 'lucide-react';

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** What the resource is for, shown on its page. */
  description: string;
  /** False while the page is only a placeholder. */
  ready: boolean;
  /** The procedure the page reads, when not every role may: the item is hidden from the others. */
  reads?: DashboardProcedure;
}

/** The dashboard's resources, in the order of the navigation. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Overview', icon: HouseIcon, ready: true, description: 'Getting started, the last 7 days of email, recent failures and usage against your plan.' },
  { href: '/emails', label: 'Emails', icon: MailIcon, ready: true, description: 'Every email you send, with its delivery status, events and opens and clicks.' },
  { href: '/domains', label: 'Domains', icon: GlobeIcon, ready: true, description: 'The domains you send from, with the SPF, DKIM and DMARC records to publish and their verification status.' },
  { href: '/api-keys', label: 'API keys', icon: KeyRoundIcon, ready: true, description: 'Keys that authenticate your requests to the API and the SMTP gateway.' },
  { href: '/webhooks', label: 'Webhooks', icon: WebhookIcon, ready: true, description: 'Endpoints that receive signed events about your emails, contacts, domains and broadcasts.' },
  { href: '/audiences', label: 'Audiences', icon: UsersIcon, ready: true, description: 'Lists of contacts to send broadcasts to, with their subscription status.' },
  { href: '/contacts', label: 'Contacts', icon: BookUserIcon, ready: true, description: 'Every contact of your organization, one per address, with its property values, segments and topics.' },
  { href: '/forms', label: 'Sign-up forms', icon: ClipboardPenLineIcon, ready: true, description: 'Forms on your site that add people to an audience, with the consent each one gave kept as proof.' },
  { href: '/broadcasts', label: 'Broadcasts', icon: MegaphoneIcon, ready: true, description: 'Messages sent to a whole audience at once, now or on a schedule.' },
  { href: '/automations', label: 'Automations', icon: WorkflowIcon, ready: true, description: 'Steps each contact is taken through when something happens: delays, emails, conditions and changes to the contact.' },
  { href: '/templates', label: 'Templates', icon: LayoutTemplateIcon, ready: true, description: 'Reusable subjects and bodies with {{ variables }}, previewed before sending.' },
  { href: '/suppressions', label: 'Suppressions', icon: BanIcon, ready: true, description: 'Addresses that will not receive email: bounces, complaints, unsubscribes and manual entries.' },
  { href: '/billing', label: 'Usage and billing', icon: GaugeIcon, ready: true, description: 'Your plan, this month and today against its limits, metered overage, and changing plans.' },
  { href: '/team', label: 'Team', icon: ContactIcon, ready: true, description: 'The people of your organization, their roles, and invitations to join it.' },
  { href: '/audit-log', label: 'Audit log', icon: ScrollTextIcon, ready: true, reads: 'auditLog.list', description: 'Who changed what in your organization, when and from where.' },
  { href: '/settings', label: 'Settings', icon: SettingsIcon, ready: true, description: 'Rules for everyone in your organization, such as requiring two-factor sign-in.' },
  { href: '/privacy', label: 'Privacy record', icon: ShieldCheckIcon, ready: true, reads: 'privacy.processingActivities', description: 'What is processed for you, why, for how long and by whom (GDPR Art. 30), as JSON too.' },
];

export const navItem = (href: string): NavItem => {
  const item = NAV_ITEMS.find((entry) => entry.href === href);
  if (!item) throw new Error(`No navigation item for ${href}`);
  return item;
};
