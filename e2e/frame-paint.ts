import type { Locator, Page } from '@playwright/test';

/** The background the specs' preview documents paint: indigo, so a blank (white) frame is told from a drawn one. */
export const INDIGO_BODY = 'background:#4338ca;color:#ffffff';

/**
 * How much of a preview frame's visible part is painted indigo (0 to 1), from what the screen
 * shows now: a capture of the viewport's pixels under the frame, not a screenshot of the element
 * (which would scroll to it and wait for it to paint), decoded in the page.
 */
export async function indigoShare(page: Page, frame: Locator): Promise<number> {
  const box = await frame.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box) return 0;
  const top = Math.max(box.y, 0);
  const bottom = Math.min(box.y + box.height, viewport.height);
  if (bottom - top < 4) return 0;
  const png = await page.screenshot({ clip: { x: box.x, y: top, width: box.width, height: bottom - top } });
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let indigo = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 0x60 && data[i + 1]! < 0x60 && data[i + 2]! > 0xb0) indigo += 1;
    return indigo / (data.length / 4);
  }, png.toString('base64'));
}
