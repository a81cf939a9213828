'use client';

// First: zod must be told before Scalar's modules build their schemas.
import './zod-jitless';
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

/**
 * Scalar's reference and try-it console over our own document. Everything it would fetch from
 * elsewhere is off (EU-only, offline installs): no default fonts, no telemetry, no agent or MCP,
 * no request proxy (the console calls this origin directly), and its external URLs point here.
 */
export default function ApiReference() {
  const origin = window.location.origin;
  return (
    <ApiReferenceReact
      configuration={{
        url: '/docs/openapi.json',
        servers: [{ url: `${origin}/api`, description: 'This service' }],
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        // The full client button hands the document to Scalar's hosted client: off.
        hideClientButton: true,
        documentDownloadType: 'json',
        externalUrls: { dashboardUrl: origin, registryUrl: origin, proxyUrl: origin, apiBaseUrl: origin },
        metaData: { title: 'EU Mail API reference' },
      }}
    />
  );
}
