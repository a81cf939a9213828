import { Fact, PrivacySection } from './privacy-section';
import type { Activity } from './types';

const list = (items: string[]) => (
  <ul className="list-inside list-disc space-y-0.5">
    {items.map((item) => (
      <li key={item}>{item}</li>
    ))}
  </ul>
);

/** What is done with personal data for the organization, one activity at a time (Art. 30(2)(b)). */
export function ActivitiesSection({ activities }: { activities: Activity[] }) {
  return (
    <PrivacySection id="activities" title="Processing activities" description="Why data is processed, about whom, what, who receives it, and for how long.">
      <div className="grid gap-4 xl:grid-cols-2">
        {activities.map((activity) => (
          <article key={activity.id} data-testid="privacy-activity" className="rounded-lg border border-slate-100 p-4">
            <h3 className="font-medium text-slate-900">{activity.name}</h3>
            <p className="mt-0.5 text-sm text-slate-500">{activity.purpose}</p>
            <dl className="mt-2 divide-y divide-slate-100">
              <Fact term="Data subjects">{list(activity.dataSubjects)}</Fact>
              <Fact term="Data">{list(activity.dataCategories)}</Fact>
              <Fact term="Recipients">{list(activity.recipients)}</Fact>
              <Fact term="Retention">{activity.retention}</Fact>
            </dl>
          </article>
        ))}
      </div>
    </PrivacySection>
  );
}
