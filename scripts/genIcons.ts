// Renders the app icon and the tray marks to PNG with Debian's Chromium (no downloaded tool), then
// packs the sizes Electron Forge needs: icon.png (Linux, 512), icon.ico (Windows: 16–256) and
// icon.icns (macOS: 16–1024). ICO and ICNS are containers of PNGs, so packing them is a few bytes of
// header each. Run: npm run gen:icons
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/browser.js';
import { ROOT } from '../test/helpers/processes.js';
import { MARKS, traySvg } from './traySvg.js';

const OUT = join(ROOT, 'resources');
const ICON_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];

async function render(svg: string, size: number, page: import('playwright-core').Page): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  return page.locator('svg').screenshot({ omitBackground: true });
}

function ico(pngs: Array<[number, Buffer]>): Buffer {
  const head = Buffer.alloc(6 + 16 * pngs.length);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(pngs.length, 4);
  let offset = head.length;
  pngs.forEach(([size, png], i) => {
    const e = 6 + 16 * i;
    head.writeUInt8(size >= 256 ? 0 : size, e); // 0 means 256
    head.writeUInt8(size >= 256 ? 0 : size, e + 1);
    head.writeUInt16LE(1, e + 4); // planes
    head.writeUInt16LE(32, e + 6); // bits per pixel
    head.writeUInt32LE(png.length, e + 8);
    head.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([head, ...pngs.map(([, p]) => p)]);
}

/** ICNS entry types that hold PNG data, by pixel size. */
const ICNS_TYPES: Record<number, string> = { 16: 'icp4', 32: 'icp5', 64: 'icp6', 128: 'ic07', 256: 'ic08', 512: 'ic09', 1024: 'ic10' };

function icns(pngs: Array<[number, Buffer]>): Buffer {
  const entries = pngs
    .filter(([s]) => ICNS_TYPES[s])
    .map(([s, png]) => {
      const h = Buffer.alloc(8);
      h.write(ICNS_TYPES[s]!, 0, 'ascii');
      h.writeUInt32BE(png.length + 8, 4);
      return Buffer.concat([h, png]);
    });
  const total = 8 + entries.reduce((n, e) => n + e.length, 0);
  const h = Buffer.alloc(8);
  h.write('icns', 0, 'ascii');
  h.writeUInt32BE(total, 4);
  return Buffer.concat([h, ...entries]);
}

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const appSvg = readFileSync(join(OUT, 'src', 'icon.svg'), 'utf8');
  const pngs: Array<[number, Buffer]> = [];
  for (const size of ICON_SIZES) pngs.push([size, await render(appSvg, size, page)]);
  writeFileSync(join(OUT, 'icon.png'), pngs.find(([s]) => s === 512)![1]);
  writeFileSync(join(OUT, 'icon.ico'), ico(pngs.filter(([s]) => s <= 256)));
  writeFileSync(join(OUT, 'icon.icns'), icns(pngs));
  for (const m of MARKS) {
    // 16 px at 1x and 32 px at 2x: Electron picks the @2x file on high-density screens.
    writeFileSync(join(OUT, `tray-${m}.png`), await render(traySvg(m, false), 16, page));
    writeFileSync(join(OUT, `tray-${m}@2x.png`), await render(traySvg(m, false), 32, page));
    writeFileSync(join(OUT, `tray-${m}Template.png`), await render(traySvg(m, true), 16, page));
    writeFileSync(join(OUT, `tray-${m}Template@2x.png`), await render(traySvg(m, true), 32, page));
  }
  console.log(`wrote icon.png, icon.ico, icon.icns and ${MARKS.length * 4} tray images to ${OUT}`);
} finally {
  await browser.close();
}
