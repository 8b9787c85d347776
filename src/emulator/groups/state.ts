// GroupState: the emulator's groups. Other domains use only the methods marked CONTRACT
// (messages fan out to members and check who may send; files check who may set a group avatar).
import { Code, ImError } from '../errors';
import type { Actor } from '../auth/actor';
import type { State } from '../state';

export class GroupState {
  constructor(readonly root: State) {}

  /** CONTRACT: throws 20001 when the group does not exist (or is dissolved). */
  requireGroup(groupId: number): void {
    throw new ImError(Code.GROUP_NOT_FOUND, `group ${groupId} does not exist`);
  }

  /** CONTRACT: user IDs of the group's members (owner and admins included). */
  memberIds(groupId: number): number[] {
    this.requireGroup(groupId);
    return [];
  }

  /** CONTRACT: when the user joined (ms), or undefined when not a member. */
  joinTime(groupId: number, userId: number): number | undefined {
    this.requireGroup(groupId);
    return userId < 0 ? 0 : undefined;
  }

  /** CONTRACT: whether new members see messages sent before they joined. */
  historyVisible(groupId: number): boolean {
    this.requireGroup(groupId);
    return false;
  }

  /**
   * CONTRACT: throws unless the actor may send to the group now: 20001 no group, 20002 not a
   * member, 10010 banned (member ban, or ban-all for non-admins).
   */
  assertCanSend(groupId: number, actor: Actor, now: number): void {
    this.requireGroup(groupId);
    void actor;
    void now;
  }

  /** CONTRACT: throws unless the actor may change the group's information (avatar, name...). */
  assertCanModifyInfo(groupId: number, actor: Actor): void {
    this.requireGroup(groupId);
    void actor;
  }
}
