// File enums, declared as every enum is (see user/enums.ts): upload kinds and methods, download options.
import { builder } from '../core/builder';

export const ChatFileType = builder.enumType('ChatFileType', {
  description: 'Kind of chat or shared file an upload target is for.',
  values: {
    CHAT_FILE: { value: 100, description: 'Plain chat file.' },
    CHAT_VOICE_AMR: { value: 101, description: 'Voice chat file (.amr).' },
    CHAT_IMAGE: { value: 102, description: 'Picture chat file.' },
    CHAT_VIDEO: { value: 103, description: 'Video chat file.' },
    CHAT_VOICE_MP3: { value: 104, description: 'Voice chat file (.mp3).' },
    SHARED_FILE: { value: 200, description: 'Shared plain file.' },
    SHARED_VOICE: { value: 201, description: 'Shared voice file.' },
    SHARED_IMAGE: { value: 202, description: 'Shared picture file.' },
    SHARED_VIDEO: { value: 203, description: 'Shared video file.' },
  },
});

export const UploadMethod = builder.enumType('UploadMethod', {
  description: 'HTTP method of an upload.',
  values: {
    POST: { value: 'POST', description: 'multipart/form-data: the form fields first, then the file in a part named file.' },
    PUT: { value: 'PUT', description: 'The raw bytes as the request body.' },
  },
});

export const ImageType = builder.enumType('ImageType', {
  description: 'Which rendition of an image to download.',
  values: {
    ORIGINAL: { value: 1, description: 'The original image.' },
    THUMBNAIL: { value: 2, description: 'The thumbnail.' },
    COVER: { value: 3, description: 'The cover (of a video).' },
  },
});

export const ThumbnailStrategy = builder.enumType('ThumbnailStrategy', {
  description: 'Where thumbnails are generated.',
  values: {
    THIRD_PARTY: { value: 1, description: 'By the third-party storage server (the default).' },
    LOCAL: { value: 2, description: 'By the local server.' },
  },
});

export const AudioFormat = builder.enumType('AudioFormat', {
  description: 'Audio format of a downloaded voice file.',
  values: {
    AMR: { value: 'amr', description: 'AMR (the default).' },
    MP3: { value: 'mp3', description: 'MP3.' },
  },
});
