import { z } from 'zod';

export const rtmpMessages = {
  accepted: 'Stream accepted.',
  refused: 'This stream key opens no class that may stream now.',
  left: 'Encoder gone.',
  tooMany: 'Too many stream attempts from this encoder: wait a minute.',
} as const;

/**
 * What nginx's rtmp module posts to Lectern when an encoder starts or stops publishing (its
 * `on_publish` and `on_publish_done` callbacks, form-encoded; docs/LIVE.md "RTMP through nginx"):
 * `name` is the stream key OBS sends, `addr` the encoder's address as nginx saw it. nginx sends
 * more fields (flashver, tcurl, clientid, …); they are ignored.
 */
export const RtmpCallbackBody = z.object({
  name: z.string().max(200),
  app: z.string().max(200).optional(),
  addr: z.string().max(100).optional(),
  call: z.string().max(40).optional(),
});
export type RtmpCallbackBody = z.infer<typeof RtmpCallbackBody>;
