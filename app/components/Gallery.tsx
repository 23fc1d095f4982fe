import { gallery, gallerySection } from "~/content";
import { container, section, sectionHeading, sectionIntro } from "~/styles/utilities.css";
import * as styles from "./Gallery.css";

/** Widths made by `npm run images` (scripts/images.mjs). */
const WIDTHS = [480, 800, 1200] as const;
const srcSet = (name: string, format: "avif" | "webp") =>
  WIDTHS.map((w) => `/photos/${name}-${w}.${format} ${w}w`).join(", ");
// One column on phones, up to three on desktop inside the 72rem container.
const SIZES = "(min-width: 72rem) 23rem, (min-width: 40rem) 50vw, 100vw";

export function Gallery() {
  return (
    <section className={section} aria-labelledby="gallery-title">
      <div className={container}>
        <h2 id="gallery-title" className={sectionHeading}>
          {gallerySection.heading}
        </h2>
        <p className={sectionIntro}>{gallerySection.intro}</p>
        <ul className={styles.grid}>
          {gallery.map((photo) => (
            <li key={photo.src}>
              <figure className={styles.figure}>
                <picture>
                  <source type="image/avif" srcSet={srcSet(photo.src, "avif")} sizes={SIZES} />
                  <img
                    className={styles.image}
                    src={`/photos/${photo.src}-800.webp`}
                    srcSet={srcSet(photo.src, "webp")}
                    sizes={SIZES}
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
      </div>
    </section>
  );
}
