/**
 * The mailbox an address delivers to, as the confirmation rules count it (docs/decisions/017): the
 * same person must not get a confirmation per spelling of their address. From an address the contract
 * already normalised (ASCII domain, lowercase): the local part lowercased (providers treat it so), its
 * "+tag" dropped, and the spellings big providers deliver to one account: for Gmail the dots it ignores
 * and its second domain; for Proton the dots, hyphens and underscores it ignores and its four domains
 * (proton.me/support/addresses-and-aliases); iCloud's three domains; Yandex's domains and its "." for
 * "-"; Fastmail's subdomain addressing (anything@user.fastmail.com is user@fastmail.com).
 */
const GMAIL = new Set(["gmail.com", "googlemail.com"]);
const PROTON = new Set(["proton.me", "protonmail.com", "protonmail.ch", "pm.me"]);
const ICLOUD = new Set(["icloud.com", "me.com", "mac.com"]);
const YANDEX = new Set(["yandex.ru", "yandex.com", "ya.ru", "yandex.by", "yandex.kz", "yandex.ua"]);
/** Fastmail delivers anything@user.fastmail.com to user@fastmail.com. */
const FASTMAIL_SUBDOMAIN = /^([a-z0-9-]+)\.(fastmail\.(?:com|fm))$/;

export function mailboxOf(address: string): string {
  const at = address.lastIndexOf("@");
  let local = address.slice(0, at).toLowerCase();
  let domain = address.slice(at + 1).toLowerCase();
  local = local.split("+")[0] || local;
  if (GMAIL.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  } else if (PROTON.has(domain)) {
    local = local.replace(/[._-]/g, "");
    domain = "proton.me";
  } else if (ICLOUD.has(domain)) {
    domain = "icloud.com";
  } else if (YANDEX.has(domain)) {
    local = local.replaceAll(".", "-");
    domain = "yandex.ru";
  } else {
    const fastmail = FASTMAIL_SUBDOMAIN.exec(domain);
    if (fastmail) [local, domain] = [fastmail[1]!, fastmail[2]!];
  }
  return `${local}@${domain}`;
}
