import { hero } from "~/content";
import { button } from "~/styles/button.css";
import { container, eyebrow } from "~/styles/utilities.css";
import * as styles from "./Hero.css";

export function Hero({ studioName }: { studioName: string }) {
  // The tagline is one sentence pair in the spec: the first sentence is the headline.
  const [headline, ...rest] = hero.tagline.split(". ");
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <svg className={styles.wave} aria-hidden="true" viewBox="0 0 600 120" fill="currentColor">
        {Array.from({ length: 60 }, (_, i) => {
          const h = 12 + Math.round(Math.abs(Math.sin(i * 0.45) * Math.cos(i * 0.13)) * 100);
          return <rect key={i} x={i * 10} y={(120 - h) / 2} width="5" height={h} rx="2.5" />;
        })}
      </svg>
      <div className={container}>
        <p className={eyebrow}>{studioName} · {hero.eyebrow}</p>
        <h1 id="hero-title" className={styles.title}>
          {headline}.
        </h1>{" "}
        <p className={styles.tagline}>{rest.join(". ")}</p>
        <a className={button.primary} href="#contact">
          {hero.cta}
        </a>
      </div>
    </section>
  );
}
