import { renderLayout, type RenderedEmail } from './layout';

export function apiKeyRevokedEmail(input: { organizationName: string; keyName: string; tokenStart: string; revokedAt: Date }): RenderedEmail {
  return renderLayout({
    subject: `API key "${input.keyName}" was revoked`,
    heading: 'An API key was revoked',
    paragraphs: [
      `The live API key "${input.keyName}" (${input.tokenStart}…) of ${input.organizationName} was revoked at ${input.revokedAt.toISOString()}.`,
      'Requests made with it are refused from now on. If you did not expect this, review your API keys and create a new one where it is needed.',
    ],
    footer: 'You receive this because you own this organization.',
  });
}
