/** Today against yesterday: "+25.0%", "-10.0%", "持平", or "新增" when yesterday had none. */
export function changeText(
  today: number,
  yesterday: number,
): { text: string; trend: 'up' | 'down' | 'flat' } {
  if (today === yesterday) return { text: '持平', trend: 'flat' };
  if (yesterday === 0) return { text: '新增', trend: 'up' };
  const pct = ((today - yesterday) / yesterday) * 100;
  return { text: `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`, trend: pct > 0 ? 'up' : 'down' };
}
