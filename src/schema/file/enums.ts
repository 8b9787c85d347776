// File codes of the spec as GraphQL enums; each value's `value` is the code the REST service uses.
import { codeEnum } from '../core/code-enum';

export const ChatFileType = codeEnum('ChatFileType', 'Kind of chat or shared file an upload target is for.', {
  CHAT_FILE: { value: 100, description: 'Plain chat file.' },
  CHAT_VOICE_AMR: { value: 101, description: 'Voice chat file (.amr).' },
  CHAT_IMAGE: { value: 102, description: 'Picture chat file.' },
  CHAT_VIDEO: { value: 103, description: 'Video chat file.' },
  CHAT_VOICE_MP3: { value: 104, description: 'Voice chat file (.mp3).' },
  SHARED_FILE: { value: 200, description: 'Shared plain file.' },
  SHARED_VOICE: { value: 201, description: 'Shared voice file.' },
  SHARED_IMAGE: { value: 202, description: 'Shared picture file.' },
  SHARED_VIDEO: { value: 203, description: 'Shared video file.' },
});
