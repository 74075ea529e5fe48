import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadInChunks, uploadNameFor, type UploadProgress } from './chunked-upload';

/**
 * A chunked upload bound to a component: its progress as state, a cancel, and an abort when the
 * component goes away (leaving the page stops sending).
 */
export function useChunkedUpload() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (file: File) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    try {
      return await uploadInChunks({
        file,
        fileName: uploadNameFor(file.name),
        signal: own.signal,
        onProgress: setProgress,
      });
    } finally {
      if (controller.current === own) controller.current = null;
      setProgress(null);
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { progress, start, cancel };
}
