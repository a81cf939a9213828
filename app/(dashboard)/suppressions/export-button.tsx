import { DownloadIcon } from 'lucide-react';
import { buttonClasses } from '../../components/button';

/**
 * The whole list as a CSV file (email, reason, created_at), whatever the search and filter: a
 * plain link to the dashboard's export route, which streams it with the session, so the browser
 * saves it as it arrives however long the list is. The route's Content-Disposition makes it a
 * download; without a `download` attribute an error (a session that ended) shows as the error
 * rather than being saved as suppressions.csv.
 */
export function ExportButton() {
  return (
    <a href="/suppressions/export" className={buttonClasses('secondary')} title="Download the whole list as a CSV file">
      <DownloadIcon className="size-4" />
      Export CSV
    </a>
  );
}
