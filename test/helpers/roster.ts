// Roster states made with raw REST (not through the gateway), for the roster schema tests.
import type { TestEmulator, TestUser } from './emulator';

/** auth_mode 0-3 of the user (document 2): 1 asks the user to accept, 2 asks a question, 3 refuses all. */
export async function setAuthMode(emu: TestEmulator, u: TestUser, mode: 0 | 1 | 2 | 3): Promise<void> {
  await emu.ok('PUT', '/user/authmode', { token: u.token, query: { value: String(mode) } });
}

/** The user asks this question of friend requests and admits this answer (auth_mode 2). */
export async function askQuestion(emu: TestEmulator, u: TestUser, question: string, answer: string): Promise<void> {
  await emu.ok('PUT', '/user/settings', {
    token: u.token,
    body: { user_id: u.id, auth_mode: 2, auth_question: question, auth_answer: answer },
  });
}

/** A pending request from `from` to `to` (who then has to accept). */
export async function pendingRequest(emu: TestEmulator, from: TestUser, to: TestUser, reason = 'hi'): Promise<void> {
  await setAuthMode(emu, to, 1);
  await emu.ok('POST', '/roster/apply', { token: from.token, body: { user_id: to.id, reason } });
}

/** Makes the two friends (b admits anyone by default). */
export async function befriend(emu: TestEmulator, a: TestUser, b: TestUser, alias?: string): Promise<void> {
  await emu.ok('POST', '/roster/apply', { token: a.token, body: { user_id: b.id, ...(alias ? { alias } : {}) } });
}
