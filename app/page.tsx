import { redirect } from 'next/navigation';

/** The dashboard's home is the API keys page for now; it sends visitors without a session to sign in. */
export default function Home() {
  redirect('/api-keys');
}
