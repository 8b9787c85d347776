// Message codes of the spec as GraphQL enums; each value's `value` is the code the REST service uses.
import { codeEnum } from '../core/code-enum';

export const MessageType = codeEnum('MessageType', 'Kind of a message (content_type on send, ctype on read).', {
  TEXT: { value: 0, description: 'Plain text.' },
  IMAGE: { value: 1, description: 'An image; the attachment carries its URL and size.' },
  AUDIO: { value: 2, description: 'A voice message; the attachment carries its URL and duration.' },
  VIDEO: { value: 3, description: 'A video; the attachment carries its URL.' },
  FILE: { value: 4, description: 'A file; the attachment carries its URL, name and size.' },
  LOCATION: { value: 5, description: 'A location.' },
  COMMAND: { value: 6, description: 'A command for the app, not shown to the user.' },
  FORWARD: { value: 7, description: 'A forwarded message.' },
});

export const TargetType = codeEnum('TargetType', 'Whom a message or file goes to.', {
  USER: { value: 1, description: 'Users.' },
  GROUP: { value: 2, description: 'Groups.' },
});

export const MessageStatus = codeEnum('MessageStatus', 'Delivery state of a message, as the reader sees it.', {
  UNREAD: { value: 'UNREAD', description: 'Not yet delivered to the reader.' },
  DELIVERED: { value: 'DELIVERED', description: 'Delivered, not read.' },
  READ: { value: 'READ', description: 'Read (acknowledged).' },
});
