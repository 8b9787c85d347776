// The roster item (8.10, 8.12, 8.14, 8.15): another user as the viewer sees them. Public profile
// fields only: never mobile, email, private_info or the expected auth_answer.
import type { RosterItem } from '../../rest/records';
import type { State } from '../state';
import type { UserRecord } from '../users/model';

export function rosterItem(state: State, viewerId: number, user: UserRecord): RosterItem {
  const notes = state.roster.friends.notes(viewerId, user.id);
  const { nick_name, avatar, description, public_info } = user.profile;
  return {
    user_id: user.id,
    username: user.username,
    nick_name,
    avatar,
    description,
    public_info,
    alias: notes?.alias ?? '',
    ext: notes?.ext ?? '',
    mute_notification: notes?.mute ?? false,
    relation: state.roster.relation(viewerId, user.id),
    auth_mode: user.settings.auth_mode,
    auth_question: user.settings.auth_question,
  };
}
