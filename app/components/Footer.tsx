import { footer, navigation } from "~/content";
import { container } from "~/styles/utilities.css";
import * as styles from "./Footer.css";
import { LogoMark } from "./LogoMark";

export function Footer({ studioName, email }: { studioName: string; email: string }) {
  return (
    <footer className={styles.footer}>
      <div className={`${container} ${styles.inner}`}>
        <p className={styles.brand}>
          <LogoMark className={styles.mark} />
          {studioName}
        </p>
        <nav aria-label="Footer">
          <ul className={styles.links}>
            {navigation.map((item) => (
              <li key={item.href}>
                <a href={item.href}>{item.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <p className={styles.small}>
          <a href={`mailto:${email}`}>{email}</a>
        </p>
        <p className={styles.small}>
          © {new Date().getFullYear()} {studioName}. {footer.rights}
        </p>
      </div>
    </footer>
  );
}
