// Friend applications, one per applicant and receiver: applying again replaces the record, which
// then counts as the newest. Handled and expired applications stay listed until the applicant
// applies again.
import { APPLICATION, type ApplicationRecord, isPending } from './model';

interface NewApplication {
  reason: string;
  alias: string;
  expiredTime: number;
}

export class Applications {
  /** receiver → applicant → the latest application. */
  private readonly byReceiver = new Map<number, Map<number, ApplicationRecord>>();
  private seq = 0;

  get(applicantId: number, receiverId: number): ApplicationRecord | undefined {
    return this.byReceiver.get(receiverId)?.get(applicantId);
  }

  /** The applicant's application to the receiver when it is still waiting and not expired. */
  pending(applicantId: number, receiverId: number, now: number): ApplicationRecord | undefined {
    const record = this.get(applicantId, receiverId);
    return isPending(record, now) ? record : undefined;
  }

  open(applicantId: number, receiverId: number, init: NewApplication): void {
    let received = this.byReceiver.get(receiverId);
    if (!received) this.byReceiver.set(receiverId, (received = new Map()));
    received.set(applicantId, { applicantId, receiverId, ...init, status: APPLICATION.PENDING, seq: ++this.seq });
  }

  /** The two became friends: whatever either had pending to the other is accepted. */
  settle(a: number, b: number, now: number): void {
    for (const record of [this.pending(a, b, now), this.pending(b, a, now)]) {
      if (record) record.status = APPLICATION.ACCEPTED;
    }
  }

  /** Withdraws what either had pending to the other (a blacklist came between them). */
  withdraw(a: number, b: number, now: number): void {
    if (this.pending(a, b, now)) this.byReceiver.get(b)?.delete(a);
    if (this.pending(b, a, now)) this.byReceiver.get(a)?.delete(b);
  }

  /** Applications the user received, newest first. */
  receivedBy(receiverId: number): ApplicationRecord[] {
    return [...(this.byReceiver.get(receiverId)?.values() ?? [])].sort((x, y) => y.seq - x.seq);
  }
}
