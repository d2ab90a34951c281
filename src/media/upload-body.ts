/**
 * The bytes of an upload and its file name: the request body itself (`Content-Type: image/…` or
 * `application/octet-stream`; the bytes decide the format, not the header), or the one file of a
 * `multipart/form-data` form (what a browser's file input sends) — no other field, no second file.
 */
import type { FastifyRequest } from 'fastify';
import { imageTooLarge, malformedUpload } from './errors.js';

export interface Upload {
  bytes: Buffer;
  filename: string | null;
}

/** A browser's file name without its folders (old browsers send the full path), at most 255 characters. */
function baseName(name: string): string | null {
  const base = name.split(/[\\/]/).pop()!.trim().slice(0, 255);
  return base === '' ? null : base;
}

async function multipartUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  let upload: Upload | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 2, fields: 0 } })) {
    if (part.type !== 'file') throw malformedUpload(`Unknown form field "${part.fieldname}": send only the image`);
    if (upload) throw malformedUpload('Send one image per request');
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw imageTooLarge(maxBytes);
    upload = { bytes, filename: baseName(part.filename) };
  }
  if (!upload) throw malformedUpload('The form holds no file: send the image as a file field');
  return upload;
}

export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  let upload: Upload;
  try {
    upload = request.isMultipart()
      ? await multipartUpload(request, maxBytes)
      : { bytes: request.body as Buffer, filename: null };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw imageTooLarge(maxBytes);
    if (code === 'FST_FILES_LIMIT') throw malformedUpload('Send one image per request');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw malformedUpload('Send only the image, as one file field');
    throw error;
  }
  if (!Buffer.isBuffer(upload.bytes) || upload.bytes.length === 0) throw malformedUpload('The request has no image: send it as the body or as a form file');
  return upload;
}
