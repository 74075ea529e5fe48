/** The QR code of `text` as an SVG data URL (drawn here: no image service sees the secret). */
export async function qrDataUrl(text: string): Promise<string> {
  // Loaded at the first enrolment, not at every start of a server or a CLI run.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
