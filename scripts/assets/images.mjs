// Makes the responsive gallery files from public/photos/source/<name>.(jpg|jpeg|png|webp|svg):
// <name>-<width>.avif and .webp at each width, 4:3, centre-cropped. Run after swapping a photo:
//   npm run images
import { readdirSync, mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

export const WIDTHS = [480, 800, 1200];
const root = path.resolve(import.meta.dirname, "../../public/photos");
const sources = readdirSync(path.join(root, "source")).filter((f) => /\.(jpe?g|png|webp|svg)$/i.test(f));
mkdirSync(root, { recursive: true });

for (const file of sources) {
  const name = file.replace(/\.[^.]+$/, "");
  for (const width of WIDTHS) {
    const height = Math.round((width * 3) / 4);
    const image = sharp(path.join(root, "source", file), { density: 144 }).resize(width, height, { fit: "cover" });
    await image
      .clone()
      .avif({ quality: 50, effort: 6 })
      .toFile(path.join(root, `${name}-${width}.avif`));
    await image
      .clone()
      .webp({ quality: 72 })
      .toFile(path.join(root, `${name}-${width}.webp`));
  }
  console.log(`${name}: ${WIDTHS.join(", ")} px`);
}
