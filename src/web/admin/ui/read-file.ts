/** A file's text, or its bytes as a data URL (FileReader: also where `Blob.text` is missing, as in jsdom). */
export function readFile(file: Blob, as: 'text' | 'data-url'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}
