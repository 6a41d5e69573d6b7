/** A small round swatch of a colour (a channel's theme, an A/B arm). */
export function ColourDot({ colour }: { colour: string | undefined }) {
  return (
    <span
      style={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: 5,
        background: colour,
      }}
    />
  );
}
