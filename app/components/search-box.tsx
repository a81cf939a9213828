import { SearchIcon } from 'lucide-react';
import { useId } from 'react';

/** A labelled search field for part of an address, any case; the caller asks the server once typing pauses. */
export function SearchBox({ value, onChange, searching, maxLength }: { value: string; onChange: (value: string) => void; searching: boolean; maxLength: number }) {
  const id = useId();
  return (
    <div className="w-full sm:max-w-xs">
      <div className="mb-1.5 flex items-baseline">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          Search
        </label>
      </div>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
        <input
          id={id}
          type="search"
          name="search"
          placeholder="Part of an address"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={maxLength}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-busy={searching || undefined}
          className="block w-full rounded-md border-0 bg-white py-2 pr-3 pl-8 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none focus:ring-inset"
        />
      </div>
    </div>
  );
}
