import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * `text` as a QR code, drawn as one SVG path of its dark modules (uqr encodes; React draws, so no
 * markup from a string reaches the page). The quiet zone uqr adds is part of the picture, which
 * authenticator apps need to find the code.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const qr = encode(text, { ecc: 'M' });
    const moves: string[] = [];
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) moves.push(`M${x} ${y}h1v1h-1z`);
      }),
    );
    return { size: qr.size, path: moves.join('') };
  }, [text]);
  return (
    <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} className={className} shapeRendering="crispEdges" data-testid="qr-code">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#0f172a" />
    </svg>
  );
}
