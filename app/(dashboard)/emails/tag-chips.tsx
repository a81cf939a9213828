import type { EmailSummary } from './types';

const SHOWN = 3;

/** An email's tags as small `name:value` chips, the first few only. */
export function TagChips({ tags }: { tags: EmailSummary['tags'] }) {
  if (tags.length === 0) return null;
  const hidden = tags.length - SHOWN;
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label="Tags">
      {tags.slice(0, SHOWN).map((tag) => (
        <li key={`${tag.name}:${tag.value}`} className="rounded bg-slate-100 px-1.5 py-px font-mono text-[11px] text-slate-600">
          {tag.name}:{tag.value}
        </li>
      ))}
      {hidden > 0 && <li className="px-1 text-[11px] text-slate-400">+{hidden}</li>}
    </ul>
  );
}
