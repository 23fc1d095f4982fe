import { gallery, gallerySection } from "~/content";
import * as styles from "./Gallery.css";
import { Section } from "./Section";

/** Widths made by `npm run images` (scripts/assets/images.mjs). */
const WIDTHS = [480, 800, 1200] as const;
const srcSet = (name: string, format: "avif" | "webp") => WIDTHS.map((w) => `/photos/${name}-${w}.${format} ${w}w`).join(", ");

export function Gallery() {
  return (
    <Section name="gallery" anchor={false} heading={gallerySection.heading} intro={gallerySection.intro}>
      <ul className={styles.grid}>
        {gallery.map((photo) => (
          <li key={photo.src}>
            <figure className={styles.figure}>
              <picture>
                <source type="image/avif" srcSet={srcSet(photo.src, "avif")} sizes={styles.sizes} />
                <img
                  className={styles.image}
                  src={`/photos/${photo.src}-800.webp`}
                  srcSet={srcSet(photo.src, "webp")}
                  sizes={styles.sizes}
                  width={1200}
                  height={900}
                  alt={photo.alt}
                  loading="lazy"
                  decoding="async"
                />
              </picture>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
