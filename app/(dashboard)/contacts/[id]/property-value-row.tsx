import { Badge } from '../../../components/badge';
import { typeLabel, valueText } from '../property-values';
import type { ContactProperty, PropertyValue } from '../types';

/** One property: its key and type, and the contact's value, else the fallback greyed, else nothing. */
export function PropertyValueRow({ property, value }: { property: ContactProperty; value: PropertyValue | undefined }) {
  const state = value !== undefined ? 'value' : property.fallbackValue !== null ? 'fallback' : 'none';
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[minmax(0,14rem)_1fr] sm:gap-4" data-testid="property-value" data-key={property.key} data-state={state}>
      <dt className="flex min-w-0 items-center gap-2">
        <code className="font-mono text-sm break-all text-slate-800">{property.key}</code>
        <Badge tone="muted">{typeLabel(property.type)}</Badge>
      </dt>
      <dd className="min-w-0 text-sm break-words" data-testid="property-value-text">
        {state === 'value' && <span className="text-slate-900">{valueText(value)}</span>}
        {state === 'fallback' && (
          <span className="text-slate-400" title="The property's fallback: this contact has no value of its own">
            {valueText(property.fallbackValue)} <span className="text-xs">(fallback)</span>
          </span>
        )}
        {state === 'none' && <span className="text-slate-400">—</span>}
      </dd>
    </div>
  );
}
