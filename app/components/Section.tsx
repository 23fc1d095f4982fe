import type { ReactNode } from "react";
import { container, section, sectionHeading, sectionIntro } from "~/styles/utilities.css";

type Props = {
  /** Names the heading's id (`<name>-title`) and, when `anchor`, the section's own id (#services …). */
  name: string;
  anchor?: boolean;
  heading: string;
  intro?: string;
  /** A band or other look on top of the section's spacing. */
  className?: string;
  children: ReactNode;
};

/** One section of the page: labelled by its heading, in the content column, with an optional intro. */
export function Section({ name, anchor = true, heading, intro, className, children }: Props) {
  return (
    <section id={anchor ? name : undefined} className={className ? `${section} ${className}` : section} aria-labelledby={`${name}-title`}>
      <div className={container}>
        <h2 id={`${name}-title`} className={sectionHeading}>
          {heading}
        </h2>
        {intro ? <p className={sectionIntro}>{intro}</p> : null}
        {children}
      </div>
    </section>
  );
}
