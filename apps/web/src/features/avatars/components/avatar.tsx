import { avatarDataUrl, avatarName, avatarNumberForUid } from '../avatar';

interface AvatarProps {
  /** The person's uid: avatar-((uid % 50) + 1). */
  uid: number;
  className?: string;
}

/** The person's numbered avatar (spec §3), drawn from its number: nothing to download. */
export function Avatar({ uid, className }: AvatarProps) {
  const n = avatarNumberForUid(uid);
  return (
    <img
      className={className}
      src={avatarDataUrl(n)}
      alt="头像"
      data-avatar={avatarName(n)}
      width={64}
      height={64}
      decoding="async"
    />
  );
}
