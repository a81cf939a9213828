'use client';

import { switchDashboardMode, useDashboardMode } from '../lib/dashboard-mode';

/** Live or test data: the server reads the cookie, so the page reloads to show the other world. */
export function ModeSwitch() {
  const mode = useDashboardMode();
  return (
    <div className="flex rounded-lg border border-slate-200 bg-slate-50 p-0.5 text-xs font-medium" role="group" aria-label="Data shown">
      {(['live', 'test'] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={mode === option}
          onClick={() => mode !== option && switchDashboardMode(option)}
          className={`flex-1 rounded-md px-2 py-1 ${mode === option ? (option === 'test' ? 'bg-amber-100 text-amber-900' : 'bg-white text-slate-900 shadow-sm') : 'text-slate-500 hover:text-slate-700'}`}
        >
          {option === 'live' ? 'Live' : 'Test mode'}
        </button>
      ))}
    </div>
  );
}
