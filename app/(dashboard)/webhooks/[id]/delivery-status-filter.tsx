import { SelectField } from '../../../components/field';
import { DELIVERY_STATUSES, DELIVERY_STATUS_STYLE, isDeliveryStatus, type DeliveryStatus } from './delivery-statuses';

/** Which deliveries the table lists: all, or those of one status. */
export function DeliveryStatusFilter({ value, onChange }: { value: DeliveryStatus | undefined; onChange: (status: DeliveryStatus | undefined) => void }) {
  return (
    <SelectField
      label="Status"
      name="status"
      className="w-44"
      value={value ?? ''}
      onChange={(event) => onChange(isDeliveryStatus(event.target.value) ? event.target.value : undefined)}
    >
      <option value="">All statuses</option>
      {DELIVERY_STATUSES.map((status) => (
        <option key={status} value={status}>
          {DELIVERY_STATUS_STYLE[status].label}
        </option>
      ))}
    </SelectField>
  );
}
