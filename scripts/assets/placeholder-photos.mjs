// Draws the six placeholder "photos" of the studio as SVG illustrations in public/photos/source/.
// They stand in until the studio drops real photos there (same names, .jpg/.png) and runs `npm run images`.
import { writeFileSync, mkdirSync } from "node:fs";

const W = 1200,
  H = 900;
const dir = new URL("../../public/photos/source/", import.meta.url);
mkdirSync(dir, { recursive: true });

const frame = (defs, body, glow = "#f4a93b") => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d1926"/><stop offset="1" stop-color="#0c0b10"/></linearGradient>
<radialGradient id="glow" cx="0.7" cy="0.2" r="0.8"><stop offset="0" stop-color="${glow}" stop-opacity="0.45"/><stop offset="1" stop-color="${glow}" stop-opacity="0"/></radialGradient>
${defs}
</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/><rect width="${W}" height="${H}" fill="url(#glow)"/>
${body}
</svg>`;

const panels = (y, rows = 3, cols = 8, color = "#2b2536") =>
  Array.from({ length: rows * cols }, (_, i) => {
    const x = 40 + (i % cols) * 142,
      yy = y + Math.floor(i / cols) * 130;
    return `<rect x="${x}" y="${yy}" width="126" height="114" rx="10" fill="${color}" stroke="#3a3348" stroke-width="3"/>`;
  }).join("");

const meters = (x, y, n, h) =>
  Array.from({ length: n }, (_, i) => {
    const level = 0.3 + 0.7 * Math.abs(Math.sin(i * 1.7));
    const top = y + h * (1 - level);
    return `<rect x="${x + i * 26}" y="${top}" width="16" height="${h * level}" rx="4" fill="${level > 0.85 ? "#ff7a70" : level > 0.6 ? "#f4a93b" : "#5fd394"}"/>`;
  }).join("");

const scenes = {
  "vocal-booth": frame(
    "",
    `${panels(60)}
<rect x="0" y="500" width="${W}" height="400" fill="#15121b"/>
<line x1="600" y1="420" x2="600" y2="860" stroke="#6b6478" stroke-width="14"/>
<rect x="450" y="850" width="300" height="20" rx="10" fill="#6b6478"/>
<rect x="540" y="170" width="120" height="260" rx="60" fill="#c9c2d6"/>
<g stroke="#8a8398" stroke-width="4">${Array.from({ length: 9 }, (_, i) => `<line x1="548" y1="${200 + i * 22}" x2="652" y2="${200 + i * 22}"/>`).join("")}</g>
<circle cx="380" cy="300" r="110" fill="none" stroke="#4a4358" stroke-width="10"/><circle cx="380" cy="300" r="100" fill="#000" opacity="0.35"/>
<line x1="470" y1="360" x2="560" y2="420" stroke="#4a4358" stroke-width="8"/>`,
  ),
  "control-room": frame(
    "",
    `<rect x="0" y="600" width="${W}" height="300" fill="#221d2b"/>
<rect x="0" y="580" width="${W}" height="40" fill="#2f283b"/>
<rect x="380" y="220" width="440" height="280" rx="14" fill="#0b0a0f" stroke="#3a3348" stroke-width="6"/>
<polyline fill="none" stroke="#f4a93b" stroke-width="5" points="${Array.from({ length: 41 }, (_, i) => `${400 + i * 10},${360 + Math.sin(i * 0.8) * 60 * Math.cos(i * 0.21)}`).join(" ")}"/>
${[140, 920].map((x) => `<rect x="${x}" y="250" width="140" height="240" rx="12" fill="#16131c" stroke="#3a3348" stroke-width="5"/><circle cx="${x + 70}" cy="420" r="48" fill="#2b2536" stroke="#5a5368" stroke-width="6"/><circle cx="${x + 70}" cy="310" r="22" fill="#2b2536" stroke="#5a5368" stroke-width="5"/>`).join("")}
<rect x="300" y="640" width="600" height="120" rx="12" fill="#2b2536"/>
${Array.from({ length: 14 }, (_, i) => `<rect x="${330 + i * 40}" y="660" width="22" height="80" rx="6" fill="#15121b"/><rect x="${330 + i * 40}" y="${680 + ((i * 13) % 40)}" width="22" height="14" rx="4" fill="#c9c2d6"/>`).join("")}`,
  ),
  "live-room": frame(
    "",
    `${panels(40, 4, 8, "#3a2a22")}
<rect x="0" y="560" width="${W}" height="340" fill="#2a1d17"/>
${Array.from({ length: 12 }, (_, i) => `<rect x="${i * 100}" y="560" width="96" height="340" fill="#33241c"/>`).join("")}
<ellipse cx="600" cy="560" rx="520" ry="40" fill="#f4a93b" opacity="0.12"/>
<path d="M820 560 v-160 h120 v160" fill="none" stroke="#6b6478" stroke-width="10"/><circle cx="880" cy="380" r="40" fill="#c9c2d6"/>`,
    "#ffb060",
  ),
  interface: frame(
    "",
    `<rect x="150" y="300" width="900" height="300" rx="24" fill="#221d2b" stroke="#3a3348" stroke-width="6"/>
${[300, 480].map((x) => `<circle cx="${x}" cy="450" r="70" fill="#15121b" stroke="#5a5368" stroke-width="8"/><line x1="${x}" y1="450" x2="${x + 40}" y2="400" stroke="#f4a93b" stroke-width="10" stroke-linecap="round"/>`).join("")}
${meters(620, 360, 14, 180)}
<rect x="180" y="620" width="840" height="14" rx="7" fill="#5a5368" opacity="0.5"/>`,
  ),
  cables: frame(
    "",
    `<rect x="140" y="140" width="920" height="260" rx="16" fill="#221d2b" stroke="#3a3348" stroke-width="6"/>
${Array.from({ length: 24 }, (_, i) => `<circle cx="${190 + (i % 12) * 74}" cy="${210 + Math.floor(i / 12) * 110}" r="18" fill="#0b0a0f" stroke="#6b6478" stroke-width="5"/>`).join("")}
${["#f4a93b", "#5fd394", "#7aa7ff", "#ff7a70", "#c9a0ff", "#f4a93b"].map((c, i) => `<path d="M${190 + i * 148} 320 C ${190 + i * 148} 600, ${260 + i * 120} 600, ${260 + i * 120} 900" fill="none" stroke="${c}" stroke-width="14" stroke-linecap="round"/>`).join("")}`,
    "#7aa7ff",
  ),
  lounge: frame(
    "",
    `<rect x="0" y="620" width="${W}" height="280" fill="#1b1722"/>
<rect x="220" y="430" width="760" height="200" rx="40" fill="#3a2f4a"/>
<rect x="180" y="480" width="110" height="190" rx="36" fill="#463a58"/><rect x="910" y="480" width="110" height="190" rx="36" fill="#463a58"/>
<rect x="290" y="520" width="620" height="120" rx="24" fill="#4f4263"/>
<rect x="820" y="150" width="200" height="230" rx="8" fill="#0b0a0f" stroke="#3a3348" stroke-width="6"/>
${meters(850, 190, 6, 160)}
<circle cx="260" cy="200" r="60" fill="#f4a93b" opacity="0.5"/><line x1="260" y1="0" x2="260" y2="140" stroke="#6b6478" stroke-width="4"/>`,
  ),
};

for (const [name, svg] of Object.entries(scenes)) writeFileSync(new URL(`${name}.svg`, dir), svg);
console.log(`wrote ${Object.keys(scenes).length} placeholder photos to public/photos/source/`);
