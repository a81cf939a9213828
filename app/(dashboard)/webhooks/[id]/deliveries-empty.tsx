/** No delivery to list: none yet, or none of the status picked. */
export function DeliveriesEmpty({ filtered }: { filtered: boolean }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="deliveries-empty">
      {filtered ? (
        <p>No delivery has this status.</p>
      ) : (
        <>
          <p className="font-medium text-slate-900">No deliveries yet</p>
          <p className="mt-1">Each event this endpoint subscribes to shows up here with every attempt. Send a test event to see one now.</p>
        </>
      )}
    </div>
  );
}
