import { useState } from 'react';
import type { User } from '../../common/api-types.js';

/** The user's picture, or their initial when there is none (or it fails to load). */
export function Avatar({ user }: { user: Pick<User, 'name' | 'picture'> }) {
  const [broken, setBroken] = useState(false);
  if (user.picture && !broken) {
    return <img className="avatar" src={user.picture} alt="" referrerPolicy="no-referrer" onError={() => setBroken(true)} />;
  }
  return (
    <span className="avatar avatar-initial" aria-hidden="true">
      {(user.name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
