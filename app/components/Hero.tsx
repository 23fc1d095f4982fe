import { hero } from "~/content";
import { button } from "~/styles/button.css";
import { container, eyebrow } from "~/styles/utilities.css";
import * as styles from "./Hero.css";

/**
 * The decorative waveform: 60 bars of varying height, drawn as one path of round-capped strokes
 * (one element for the browser to style and lay out, not 60).
 */
const WAVE = Array.from({ length: 60 }, (_, i) => {
  const height = 12 + Math.round(Math.abs(Math.sin(i * 0.45) * Math.cos(i * 0.13)) * 100);
  const top = (120 - height) / 2 + 2.5; // the round caps add half the stroke width at each end
  return `M${i * 10 + 2.5} ${top}v${height - 5}`;
}).join("");

export function Hero({ studioName }: { studioName: string }) {
  // The tagline is one sentence pair in the spec: the first sentence is the headline.
  const [headline, ...rest] = hero.tagline.split(". ");
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={container}>
        <p className={eyebrow}>
          {studioName} · {hero.eyebrow}
        </p>
        <h1 id="hero-title" className={styles.title}>
          {headline}.
        </h1>{" "}
        <p className={styles.tagline}>{rest.join(". ")}</p>
        <a className={button.primary} href="#contact">
          {hero.cta}
        </a>
      </div>
      {/* Last: it hangs from the hero's bottom edge, so it must arrive after everything that makes the
          hero as tall as it is. First, a slow phone's parser painted it before the text had been
          parsed and then moved it down 400 px (a layout shift in the FAQ's slow-phone test). */}
      <svg
        className={styles.wave}
        aria-hidden="true"
        viewBox="0 0 600 120"
        fill="none"
        stroke="currentColor"
        strokeWidth="5"
        strokeLinecap="round"
      >
        <path d={WAVE} />
      </svg>
    </section>
  );
}
