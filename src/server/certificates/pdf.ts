import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** DejaVu, from an npm package, embedded (subset) in every PDF: a reader needs no font of its own. */
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** What a certificate prints; the verification page shows the same fields. */
export interface PrintedCertificate {
  school: string;
  name: string;
  rollno: string;
  course: string;
  batch: number;
  /** The date as printed (certificateDate). */
  issuedOn: string;
  serial: string;
  verifyUrl: string;
}

/** The certificate as an A4 landscape PDF, with a QR code of its public verification page. */
export async function certificatePdf(c: PrintedCertificate): Promise<Buffer> {
  // Loaded at the first certificate, not at every start of a server or a CLI run.
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([
    import('pdfkit'),
    import('qrcode'),
  ]);
  const qr = await QRCode.toBuffer(c.verifyUrl, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    scale: 6,
  });
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 48,
    info: { Title: `Certificate ${c.serial}`, Author: c.school, Subject: c.course },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const { width, height } = doc.page;
  doc
    .lineWidth(3)
    .strokeColor('#1c7ed6')
    .rect(24, 24, width - 48, height - 48)
    .stroke();
  doc
    .lineWidth(1)
    .rect(32, 32, width - 64, height - 64)
    .stroke();

  const text = width - 96;
  doc.font('bold').fontSize(16).fillColor('#1c7ed6').text(c.school, 48, 64, { width: text, align: 'center' });
  doc
    .font('bold')
    .fontSize(30)
    .fillColor('#222')
    .text('Certificate of completion', { width: text, align: 'center' });
  doc.moveDown(0.8);
  doc.font('body').fontSize(14).text('This certifies that', { width: text, align: 'center' });
  doc.moveDown(0.3);
  doc.font('bold').fontSize(26).text(c.name, { width: text, align: 'center' });
  doc.font('body').fontSize(13).text(`Roll number ${c.rollno}`, { width: text, align: 'center' });
  doc.moveDown(0.6);
  doc.fontSize(14).text('has completed the course', { width: text, align: 'center' });
  doc.moveDown(0.3);
  doc.font('bold').fontSize(22).text(c.course, { width: text, align: 'center' });
  doc.font('body').fontSize(13).text(`Batch ${c.batch}`, { width: text, align: 'center' });

  const qrSize = 120;
  const bottom = height - 56 - qrSize;
  doc.image(qr, width - 56 - qrSize, bottom, { width: qrSize, height: qrSize });
  doc.fontSize(12).fillColor('#222');
  doc.text(`Issued ${c.issuedOn}`, 56, bottom + 20, { width: text - qrSize - 24 });
  doc.text(`Serial ${c.serial}`, { width: text - qrSize - 24 });
  doc
    .fontSize(10)
    .fillColor('#555')
    .text(`Verify at ${c.verifyUrl}`, { width: text - qrSize - 24 });
  doc.end();
  return done;
}
