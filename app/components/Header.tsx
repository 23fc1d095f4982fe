import { header as headerText, navigation } from "~/content";
import { button } from "~/styles/button.css";
import { container } from "~/styles/utilities.css";
import { MENU_ATTRIBUTE } from "./header-menu.inline";
import * as styles from "./Header.css";
import { LogoMark } from "./LogoMark";

export function Header({ studioName }: { studioName: string }) {
  // Following a link closes the phone menu (the page's inline handler: header-menu.inline.ts); without
  // JavaScript it simply stays open.
  const links = () =>
    navigation.map((item) => (
      <li key={item.href}>
        <a className={styles.navLink} href={item.href}>
          {item.label}
        </a>
      </li>
    ));

  return (
    <header className={styles.header}>
      <div className={`${container} ${styles.inner}`}>
        <a className={styles.logo} href="#top">
          <LogoMark className={styles.logoMark} />
          <span className={styles.logoText}>{studioName}</span>
        </a>
        <nav className={styles.desktopNav} aria-label="Main">
          <ul className={styles.navList}>{links()}</ul>
        </nav>
        <div className={styles.actions}>
          <a className={`${button.primary} ${styles.bookNow}`} href="#contact">
            {headerText.bookNow}
          </a>
          <details className={styles.menu} {...{ [MENU_ATTRIBUTE]: "" }}>
            <summary className={styles.menuButton} aria-label={headerText.menu}>
              <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="currentColor">
                <rect x="2" y="4" width="16" height="2" rx="1" />
                <rect x="2" y="9" width="16" height="2" rx="1" />
                <rect x="2" y="14" width="16" height="2" rx="1" />
              </svg>
            </summary>
            <nav className={styles.menuPanel} aria-label="Main">
              <ul className={styles.menuList}>{links()}</ul>
              {/* Shown only where the header has no room for its own Book Now (Header.css.ts). */}
              <a className={`${button.primary} ${styles.menuBookNow}`} href="#contact">
                {headerText.bookNow}
              </a>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
