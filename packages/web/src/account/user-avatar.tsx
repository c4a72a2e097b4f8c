import { avatarInitials } from '@planwright/sdk';
import { useState } from 'react';

const SIZES = {
  small: 'size-9 text-sm',
  large: 'size-20 text-2xl',
} as const;

interface UserAvatarProps {
  avatarUrl: string | null | undefined;
  name: string | null | undefined;
  email: string | null | undefined;
  size?: keyof typeof SIZES;
}

/**
 * The avatar (spec 000 §2): the stored picture if there is one, else the SDK's initials (two words of the
 * name, else the e-mail's local part, else `??`). A picture that fails to load falls back to the initials
 * rather than a broken image. Spans only, so it may sit inside a button.
 */
export function UserAvatar({ avatarUrl, name, email, size = 'small' }: UserAvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const frame = `inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full ${SIZES[size]}`;
  if (avatarUrl && avatarUrl !== failedUrl) {
    return (
      <span className={frame}>
        <img
          src={avatarUrl}
          alt=""
          referrerPolicy="no-referrer"
          className="size-full object-cover"
          onError={() => setFailedUrl(avatarUrl)}
        />
      </span>
    );
  }
  return (
    <span className={`${frame} bg-primary font-semibold text-primary-content`}>
      {avatarInitials({ name, email })}
    </span>
  );
}
