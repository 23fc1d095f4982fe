// Makes the favicon set, the web manifest's icons and the social card (og-image.png) from SVG.
// Run after changing the mark or the studio name: node scripts/assets/brand-assets.mjs "Studio Name"
import { writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const out = path.resolve(import.meta.dirname, "../../public");
const name = process.argv[2] ?? "Lakeshore Sound Studio";
const esc = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const bars = `<rect x="2" y="12" width="4" height="10" rx="2"/><rect x="8" y="6" width="4" height="16" rx="2"/><rect x="14" y="2" width="4" height="20" rx="2"/><rect x="20" y="9" width="4" height="13" rx="2"/>`;
const icon = (size, pad) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${-pad} ${-pad} ${28 + pad * 2} ${28 + pad * 2}"><rect x="${-pad}" y="${-pad}" width="${28 + pad * 2}" height="${28 + pad * 2}" rx="${pad + 4}" fill="#0f0e13"/><g fill="#f4a93b" transform="translate(1 2)">${bars}</g></svg>`;

writeFileSync(path.join(out, "favicon.svg"), icon(32, 2));
await sharp(Buffer.from(icon(32, 2)))
  .resize(32, 32)
  .png()
  .toFile(path.join(out, "favicon-32.png"));
await sharp(Buffer.from(icon(180, 6)))
  .resize(180, 180)
  .png()
  .toFile(path.join(out, "apple-touch-icon.png"));
await sharp(Buffer.from(icon(192, 6)))
  .resize(192, 192)
  .png()
  .toFile(path.join(out, "icon-192.png"));
await sharp(Buffer.from(icon(512, 6)))
  .resize(512, 512)
  .png()
  .toFile(path.join(out, "icon-512.png"));
// Browsers still ask for /favicon.ico; without it the 404 route answers and logs an error.
await sharp(Buffer.from(icon(48, 2)))
  .resize(48, 48)
  .png()
  .toFile(path.join(out, "favicon.ico"));

const og = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs><radialGradient id="g" cx="0.85" cy="0" r="0.9"><stop offset="0" stop-color="#f4a93b" stop-opacity="0.35"/><stop offset="1" stop-color="#f4a93b" stop-opacity="0"/></radialGradient></defs>
<rect width="1200" height="630" fill="#0f0e13"/><rect width="1200" height="630" fill="url(#g)"/>
<g fill="#f4a93b" transform="translate(80 90) scale(3)">${bars}</g>
<text x="80" y="300" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="64" fill="#f5f2ec">${esc(name)}</text>
<text x="80" y="380" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#c0b9cc">Where your sound comes to life.</text>
<text x="80" y="520" font-family="DejaVu Sans, sans-serif" font-size="28" fill="#f4a93b">Recording · Mixing · Mastering · Room Rental · Etobicoke, ON</text>
</svg>`;
await sharp(Buffer.from(og)).png({ compressionLevel: 9 }).toFile(path.join(out, "og-image.png"));

writeFileSync(
  path.join(out, "site.webmanifest"),
  JSON.stringify(
    {
      name,
      short_name: name.split(" ")[0],
      start_url: "/",
      display: "browser",
      background_color: "#0f0e13",
      theme_color: "#0f0e13",
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      ],
    },
    null,
    2,
  ) + "\n",
);
console.log("brand assets written to public/");
