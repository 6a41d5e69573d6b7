/** Our own illustration: a wallet with coins and a rising chart. Decorative only. */
export function HeroIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 160 120" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-wallet" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fff" />
          <stop offset="1" stopColor="#ffe3e6" />
        </linearGradient>
        <linearGradient id="hero-coin" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffd666" />
          <stop offset="1" stopColor="#faad14" />
        </linearGradient>
      </defs>
      <path
        d="M18 92 L52 66 L78 78 L116 40"
        fill="none"
        stroke="#ffb3ba"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <path d="M104 36 L120 36 L120 52" fill="none" stroke="#ffb3ba" strokeWidth="5" strokeLinecap="round" />
      <rect x="34" y="48" width="92" height="64" rx="12" fill="url(#hero-wallet)" />
      <rect x="34" y="48" width="92" height="16" rx="8" fill="#ffccd1" />
      <rect x="96" y="70" width="34" height="22" rx="8" fill="#ff2c3e" />
      <circle cx="108" cy="81" r="4" fill="#fff" />
      <circle cx="136" cy="24" r="14" fill="url(#hero-coin)" />
      <text x="136" y="29" fontSize="14" fontWeight="700" textAnchor="middle" fill="#fff">
        ¥
      </text>
      <circle cx="24" cy="40" r="10" fill="url(#hero-coin)" />
      <text x="24" y="44" fontSize="10" fontWeight="700" textAnchor="middle" fill="#fff">
        ¥
      </text>
    </svg>
  );
}
