/**
 * Our own decorative illustrations for the landing layouts (inline SVG, a few hundred bytes each).
 * White and gold shapes sit on any theme gradient; accents follow the theme through CSS variables.
 */
const primary = { fill: 'var(--app-primary)' } as const;
const soft = { fill: 'var(--app-primary-soft)' } as const;
const light = { fill: 'var(--app-primary-light)' } as const;

function Coin({ x, y, r }: { x: number; y: number; r: number }) {
  return (
    <g>
      <circle cx={x} cy={y} r={r} fill="#ffc53d" />
      <circle cx={x} cy={y} r={r * 0.72} fill="none" stroke="#fff1b8" strokeWidth={r * 0.12} />
      <text
        x={x}
        y={y + r * 0.36}
        fontSize={r}
        fontWeight="700"
        textAnchor="middle"
        fill="#fff"
        fontFamily="sans-serif"
      >
        ¥
      </text>
    </g>
  );
}

/** hero-card: a wallet with a rising line and coins. */
export function WalletArt({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 160 120" aria-hidden="true" focusable="false">
      <path
        d="M14 94 L50 66 L78 80 L118 40"
        fill="none"
        stroke="rgba(255,255,255,.55)"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M104 38 H120 V54"
        fill="none"
        stroke="rgba(255,255,255,.55)"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <rect x="34" y="50" width="92" height="62" rx="12" fill="#fff" />
      <rect x="34" y="50" width="92" height="16" rx="8" style={soft} />
      <rect x="94" y="72" width="38" height="22" rx="8" style={primary} />
      <circle cx="106" cy="83" r="4" fill="#fff" />
      <Coin x={136} y={24} r={14} />
      <Coin x={22} y={40} r={10} />
    </svg>
  );
}

/** amount-dial: a gauge, nearly full, with tick marks. The amount is written over it in HTML. */
export function DialArt({ className }: { className?: string }) {
  // Half circle of radius 100 centred at (120, 120): length π·100 ≈ 314.
  return (
    <svg className={className} viewBox="0 0 240 132" aria-hidden="true" focusable="false">
      <path
        d="M20 120 A100 100 0 0 1 220 120"
        fill="none"
        stroke="rgba(255,255,255,.25)"
        strokeWidth="14"
        strokeLinecap="round"
      />
      <path
        d="M20 120 A100 100 0 0 1 220 120"
        fill="none"
        stroke="#ffe58f"
        strokeWidth="14"
        strokeLinecap="round"
        strokeDasharray="270 314"
      />
      {Array.from({ length: 7 }, (_, k) => {
        const i = k + 2;
        const a = Math.PI - (i * Math.PI) / 10;
        const x1 = 120 + Math.cos(a) * 80;
        const y1 = 120 - Math.sin(a) * 80;
        const x2 = 120 + Math.cos(a) * (i % 5 === 0 ? 70 : 74);
        const y2 = 120 - Math.sin(a) * (i % 5 === 0 ? 70 : 74);
        return (
          <line
            key={a}
            x1={x1}
            y1={y1}
            x2={x2}
            y2={y2}
            stroke="rgba(255,255,255,.6)"
            strokeWidth="2"
            strokeLinecap="round"
          />
        );
      })}
      <circle
        cx={120 + Math.cos(Math.PI * 0.14) * 100}
        cy={120 - Math.sin(Math.PI * 0.14) * 100}
        r="9"
        fill="#fff"
      />
    </svg>
  );
}

/** steps-list: a phone showing an approved application. */
export function PhoneArt({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 140 120" aria-hidden="true" focusable="false">
      <circle cx="70" cy="64" r="52" style={light} />
      <rect x="44" y="14" width="52" height="96" rx="10" style={primary} />
      <rect x="48" y="22" width="44" height="78" rx="5" fill="#fff" />
      <rect x="54" y="32" width="32" height="6" rx="3" style={soft} />
      <rect x="54" y="44" width="24" height="6" rx="3" style={soft} />
      <circle cx="70" cy="74" r="13" style={primary} />
      <path
        d="M63 74 L68 79 L77 69"
        fill="none"
        stroke="#fff"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <Coin x={112} y={34} r={12} />
      <Coin x={26} y={86} r={9} />
    </svg>
  );
}

/** banner-benefits: a wide banner — a city skyline, a sun and a stack of coins. */
export function BannerArt({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 375 170" preserveAspectRatio="xMidYMax slice" aria-hidden="true">
      <circle cx="322" cy="40" r="30" fill="rgba(255,255,255,.22)" />
      <circle cx="322" cy="40" r="18" fill="rgba(255,255,255,.3)" />
      <g fill="rgba(255,255,255,.16)">
        <rect x="0" y="120" width="40" height="50" />
        <rect x="44" y="96" width="34" height="74" />
        <rect x="82" y="128" width="28" height="42" />
        <rect x="114" y="108" width="30" height="62" />
        <rect x="210" y="100" width="36" height="70" />
        <rect x="250" y="124" width="30" height="46" />
        <rect x="284" y="88" width="40" height="82" />
        <rect x="328" y="116" width="47" height="54" />
      </g>
      <g fill="rgba(255,255,255,.28)">
        <rect x="52" y="104" width="6" height="6" />
        <rect x="64" y="104" width="6" height="6" />
        <rect x="52" y="118" width="6" height="6" />
        <rect x="292" y="98" width="6" height="6" />
        <rect x="306" y="98" width="6" height="6" />
        <rect x="292" y="112" width="6" height="6" />
      </g>
      <g>
        <ellipse cx="322" cy="126" rx="28" ry="7" fill="#d48806" />
        <rect x="294" y="114" width="56" height="12" fill="#faad14" />
        <ellipse cx="322" cy="114" rx="28" ry="7" fill="#ffc53d" />
        <rect x="300" y="102" width="44" height="12" fill="#faad14" />
        <ellipse cx="322" cy="102" rx="22" ry="6" fill="#ffd666" />
      </g>
      <Coin x={282} y={118} r={10} />
    </svg>
  );
}

type IconName = 'form' | 'match' | 'money' | 'amount' | 'bank' | 'clock' | 'online';

/** Small line icons used by the steps and benefits lists (24×24, theme colour). */
export function SkinIcon({ name, className }: { name: IconName; className?: string }) {
  const stroke = {
    fill: 'none',
    stroke: 'var(--app-primary)',
    strokeWidth: 1.8,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {name === 'form' && (
        <>
          <rect x="5" y="3" width="14" height="18" rx="2" style={stroke} />
          <path d="M9 8h6M9 12h6M9 16h3" style={stroke} />
        </>
      )}
      {name === 'match' && (
        <>
          <circle cx="11" cy="11" r="6" style={stroke} />
          <path d="M15.5 15.5 20 20M8.5 11l2 2 3.5-3.5" style={stroke} />
        </>
      )}
      {name === 'money' && (
        <>
          <rect x="3" y="6" width="18" height="12" rx="2" style={stroke} />
          <circle cx="12" cy="12" r="2.6" style={stroke} />
        </>
      )}
      {name === 'amount' && (
        <>
          <circle cx="12" cy="12" r="8.5" style={stroke} />
          <path d="M9 8l3 4 3-4M9 13h6M12 12v5" style={stroke} />
        </>
      )}
      {name === 'bank' && <path d="M3 9 12 4l9 5M5 10v7M10 10v7M14 10v7M19 10v7M3 20h18" style={stroke} />}
      {name === 'clock' && (
        <>
          <circle cx="12" cy="12" r="8.5" style={stroke} />
          <path d="M12 7v5l3 2" style={stroke} />
        </>
      )}
      {name === 'online' && (
        <>
          <rect x="7" y="3" width="10" height="18" rx="2" style={stroke} />
          <path d="M11 18h2" style={stroke} />
        </>
      )}
    </svg>
  );
}
