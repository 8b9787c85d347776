// Message enums, declared as every enum is (see user/enums.ts).
import { builder } from '../core/builder';

export const MessageType = builder.enumType('MessageType', {
  description: 'Kind of a message (content_type on send, ctype on read).',
  values: {
    TEXT: { value: 0, description: 'Plain text.' },
    IMAGE: { value: 1, description: 'An image; the attachment carries its URL and size.' },
    AUDIO: { value: 2, description: 'A voice message; the attachment carries its URL and duration.' },
    VIDEO: { value: 3, description: 'A video; the attachment carries its URL.' },
    FILE: { value: 4, description: 'A file; the attachment carries its URL, name and size.' },
    LOCATION: { value: 5, description: 'A location.' },
    COMMAND: { value: 6, description: 'A command for the app, not shown to the user.' },
    FORWARD: { value: 7, description: 'A forwarded message.' },
  },
});

export const TargetType = builder.enumType('TargetType', {
  description: 'Whom a message or file goes to.',
  values: {
    USER: { value: 1, description: 'Users.' },
    GROUP: { value: 2, description: 'Groups.' },
  },
});

export const MessageStatus = builder.enumType('MessageStatus', {
  description: 'Delivery state of a message, as the reader sees it.',
  values: {
    UNREAD: { value: 'UNREAD', description: 'Not yet delivered to the reader.' },
    DELIVERED: { value: 'DELIVERED', description: 'Delivered, not read.' },
    READ: { value: 'READ', description: 'Read (acknowledged).' },
    RECALLED: {
      value: 'RECALLED',
      description: 'Recalled by its sender: only the answer of recallMessage says it (the message then leaves every history).',
    },
  },
});
