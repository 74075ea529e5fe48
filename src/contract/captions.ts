import { z } from 'zod';
import { boundedText } from './fields';
import { MAX_CAPTION_BYTES } from './webvtt';

export const captionMessages = {
  languageInvalid: 'language must be a BCP 47 tag such as "en" or "pt-BR".',
  labelInvalid: 'label is required (at most 40 characters), e.g. "English".',
  fileMissing: 'Attach a caption file (.vtt or .srt).',
  fileNotText: 'The caption file must be UTF-8 text (.vtt or .srt).',
  tooLarge: `The caption file is larger than the limit of ${MAX_CAPTION_BYTES / 1024} KB.`,
  saved: 'Captions saved.',
  deleted: 'Captions deleted.',
  notFound: 'No captions in this language for this video.',
  loadFailed: 'Could not load the captions.',
  uploadFailed: 'Could not save the captions.',
  deleteFailed: 'Could not delete the captions.',
  speechDraftNone: 'No machine speech for this video: nothing to draft captions from.',
  speechDraftPublished: 'Draft published as captions.',
  speechDraftPublishFailed: 'Could not publish the draft.',
  speechDraftLoadFailed: 'Could not load the draft from speech.',
} as const;

/** A BCP 47 language tag (the common shapes: language, script, region, variants). */
export const CaptionLanguage = z
  .string({ error: captionMessages.languageInvalid })
  .trim()
  .regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8}){0,3}$/, captionMessages.languageInvalid)
  .transform((tag, ctx) => {
    // One spelling per language (`pt-br` and `pt-BR` are the same track).
    try {
      return Intl.getCanonicalLocales(tag)[0]!;
    } catch {
      ctx.addIssue({ code: 'custom', message: captionMessages.languageInvalid });
      return z.NEVER;
    }
  });

/** The multipart fields of an upload, beside the `file` part. */
export const CaptionUploadFields = z.object({
  language: CaptionLanguage,
  label: boundedText(40, captionMessages.labelInvalid),
});

export const CaptionTrack = z.strictObject({
  language: z.string(),
  label: z.string(),
  cues: z.number().int(),
  updatedAt: z.string(),
});
export type CaptionTrack = z.infer<typeof CaptionTrack>;

export const CaptionListResponse = z.strictObject({ captions: z.array(CaptionTrack) });
export type CaptionListResponse = z.infer<typeof CaptionListResponse>;

export const CaptionSavedResponse = z.strictObject({ message: z.string(), caption: CaptionTrack });

export const CaptionParams = z.object({
  videoId: z.string(),
  language: CaptionLanguage,
});

/**
 * The draft caption track from machine speech (docs/SEARCH.md): the speech cues of search, which an
 * admin downloads (`?format=vtt`), corrects and uploads, or publishes as they are.
 */
export const SpeechDraftQuery = z.object({
  format: z.enum(['json', 'vtt'], { error: 'format must be json or vtt.' }).default('json'),
});
export const SpeechDraft = z.strictObject({ cues: z.number().int(), updatedAt: z.string() });
export type SpeechDraft = z.infer<typeof SpeechDraft>;
export const SpeechDraftResponse = z.strictObject({ draft: SpeechDraft.nullable() });
export type SpeechDraftResponse = z.infer<typeof SpeechDraftResponse>;
/** Publishing the draft: its language, and a label (else the language's English name). */
export const SpeechDraftPublishBody = z.strictObject({
  language: CaptionLanguage,
  label: CaptionUploadFields.shape.label.optional(),
});
